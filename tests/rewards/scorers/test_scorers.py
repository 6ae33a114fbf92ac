"""Benchmark scorers against hand-computed values (arithmetic written next to each number)."""

from __future__ import annotations

import pytest

from rewards.rubric import Check, Criterion, Item, Rubric, Verdict
from rewards.scorers.bizgeneval import score_bizgeneval, subset_question_ids
from rewards.scorers.coverage import coverage
from rewards.scorers.genexam import score_genexam, score_genolympiad
from rewards.scorers.igenbench import score_igenbench
from rewards.scorers.item_scores import bizgeneval_penalty
from rewards.scorers.techimage import score_techimage


def verdicts(**answers: str) -> dict[str, Verdict]:
    """``verdicts(q1="yes")`` -> {"1": Verdict("1", "yes", ...)}: keyword q<id> -> answer."""
    return {k[1:]: Verdict(k[1:], a, "test") for k, a in answers.items()}


def biz_item(item_id: str, domain: str, dimension: str, n: int = 4, easy=(1, 2), hard=(3, 4)) -> Item:
    checks = [Check(str(i), f"q{i}?", tag=dimension) for i in range(1, n + 1)]
    meta = {"domain": domain, "dimension": dimension, "easy_qidxs": list(easy), "hard_qidxs": list(hard)}
    return Item(item_id, "p", Rubric.flat(checks), source="bizgeneval", meta=meta)


# ---------------------------------------------------------------- BizGenEval


def test_bizgeneval_groups_subsets_and_unweighted_average():
    results = [
        # errors: q2 no, q3 withheld -> all 2, easy 1, hard 1
        (biz_item("a", "slides", "text"), verdicts(q1="yes", q2="no", q3="withheld", q4="yes")),
        (biz_item("b", "slides", "layout"), verdicts(q1="yes", q2="yes", q3="yes", q4="yes")),
        # no verdicts at all: every question is an error
        (biz_item("c", "chart", "text"), {}),
    ]
    s = score_bizgeneval(results)
    all_, easy, hard = s["subsets"]["all"], s["subsets"]["easy"], s["subsets"]["hard"]
    assert [r["error_score"] for r in all_["items"]] == pytest.approx([1 - 0.1 * 2, 1.0, 1 - 0.1 * 4])
    assert [r["error_score"] for r in easy["items"]] == pytest.approx([1 - 0.2 * 1, 1.0, 1 - 0.2 * 2])
    assert [r["error_score"] for r in hard["items"]] == pytest.approx([1 - 0.2 * 1, 1.0, 1 - 0.2 * 2])
    assert [r["accuracy"] for r in all_["items"]] == pytest.approx([2 / 4, 1.0, 0.0])
    assert all_["by_domain"]["slides"] == {
        "count": 2,
        "accuracy": pytest.approx(0.75),
        "error_score": pytest.approx((0.8 + 1.0) / 2),
    }
    assert all_["by_domain"]["chart"]["error_score"] == pytest.approx(0.6)
    # Average = mean of the group means (0.9 + 0.6) / 2, not the item mean (0.8 + 1 + 0.6) / 3 = 0.8
    assert all_["average_by_domain"] == pytest.approx(0.75)
    assert all_["by_dimension"]["text"]["error_score"] == pytest.approx((0.8 + 0.6) / 2)
    assert all_["average_by_dimension"] == pytest.approx((0.7 + 1.0) / 2)
    assert easy["alpha"] == pytest.approx(0.2) and all_["alpha"] == pytest.approx(0.1)
    # 12 checks: a answers 3 (1 withheld), b answers 4, c none (4 missing)
    assert s["coverage"] == {"items": 3, "checks": 12, "answered": 7, "withheld": 1, "missing": 4, "coverage": 7 / 12}


def test_bizgeneval_clamps_at_zero_and_agrees_with_item_score():
    item = biz_item("x", "poster", "knowledge", n=20, easy=range(1, 11), hard=range(11, 21))
    v = {str(i): Verdict(str(i), "yes" if i > 6 else "no", "t") for i in range(1, 21)}
    s = score_bizgeneval([(item, v)])
    assert s["subsets"]["easy"]["items"][0]["error_score"] == 0.0  # max(0, 1 - 0.2 * 6)
    assert s["subsets"]["hard"]["items"][0]["error_score"] == 1.0  # no hard errors
    assert s["subsets"]["all"]["items"][0]["error_score"] == pytest.approx(1 - 0.1 * 6)
    assert s["subsets"]["all"]["items"][0]["error_score"] == bizgeneval_penalty(item, v, alpha=0.1)


def test_bizgeneval_subsets_fall_back_to_check_difficulty_and_skip_empty_subsets():
    checks = [Check("a", "?", difficulty="easy"), Check("b", "?", difficulty="hard"), Check("c", "?")]
    item = Item("r", "p", Rubric.flat(checks), meta={"domain": "slides", "dimension": "text"})
    assert subset_question_ids(item, "easy") == ["a"] and subset_question_ids(item, "all") == ["a", "b", "c"]
    no_easy = biz_item("n", "slides", "text", easy=())
    s = score_bizgeneval([(item, verdicts()), (no_easy, {})])
    assert s["subsets"]["easy"]["count"] == 1 and s["subsets"]["hard"]["count"] == 2
    with pytest.raises(ValueError, match="unknown BizGenEval subset"):
        subset_question_ids(item, "medium")


# ---------------------------------------------------------------- TechImage-Bench


def test_techimage_pools_over_all_criteria():
    a = Item(
        "A",
        "p",
        Rubric(
            (
                Criterion("c1", (Check("1", "?"), Check("2", "?"), Check("3", "?"))),
                Criterion("c2", (Check("4", "?"),)),
            )
        ),
    )
    b = Item("B", "p", Rubric((Criterion("c3", (Check("1", "?"),)),)))
    results = [(a, verdicts(q1="yes", q2="no", q3="no", q4="yes")), (b, verdicts(q1="withheld"))]
    s = score_techimage(results)
    # calc_metrics.py: accuracy = points judged yes / points = 2 / 5; score penalises only "no":
    # e = (2, 0, 0) (B's withheld point is unjudged, not an e_i) -> (0.25 + 1 + 1) / 3
    assert s["rubric_accuracy"] == pytest.approx(2 / 5)
    assert s["criterion_score"] == pytest.approx((0.25 + 1 + 1) / 3)
    # the paper's reading (every point not "yes" fails): e = (2, 0, 1)
    assert s["criterion_score_all_failed"] == pytest.approx((0.25 + 1 + 0.5) / 3)
    # a mean of per-task means would give (2/4 + 0) / 2 = 0.25 and ((0.25 + 1) / 2 + 1) / 2 = 0.8125
    assert s["rubric_accuracy"] != pytest.approx(0.25) and s["criterion_score"] != pytest.approx(0.8125)
    assert (s["criteria"], s["points"], s["passed_points"], s["failed_points"], s["unjudged_points"]) == (3, 5, 2, 2, 1)
    assert score_techimage([])["rubric_accuracy"] is None


def test_techimage_per_domain_by_task_prefix():
    def task(i, n):
        return Item(i, "p", Rubric((Criterion("c", tuple(Check(str(k), "?") for k in range(n))),)))

    results = [
        (task("bio_1", 2), verdicts(q0="yes", q1="no")),
        (task("bio_2", 1), verdicts(q0="yes")),
        (task("engineering_1", 2), verdicts(q0="no", q1="no")),
        (task("misc_1", 1), verdicts(q0="yes")),
    ]
    s = score_techimage(results)
    assert set(s["by_domain"]) == {"bio", "engineering"}  # no general_ task; misc_ is only in the total
    assert s["by_domain"]["bio"]["rubric_accuracy"] == pytest.approx(2 / 3)
    assert s["by_domain"]["bio"]["criterion_score"] == pytest.approx((0.5 + 1) / 2)
    assert s["by_domain"]["engineering"]["criterion_score"] == pytest.approx(0.25)
    assert s["rubric_accuracy"] == pytest.approx(3 / 6)


# ---------------------------------------------------------------- IGenBench


def test_igenbench_q_acc_pooled_and_i_acc():
    def item(i, tags):
        return Item(i, "p", Rubric.flat([Check(str(k), "?", tag=t) for k, t in enumerate(tags, start=1)]))

    results = [
        (item("1", ["Title", "Legend"]), verdicts(q1="yes", q2="yes")),
        (item("2", ["Title", "Legend", "Axes"]), verdicts(q1="yes", q2="no", q3="withheld")),
        (item("3", ["Title"]), {}),
    ]
    s = score_igenbench(results)
    # score_cli.py: withheld and missing verdicts are unjudged and leave the denominator
    assert s["q_acc"] == pytest.approx(3 / 4)  # yes 2 + 1 of judged 2 + 2
    assert (s["correct"], s["judged"], s["unjudged"]) == (3, 4, 2)
    assert s["q_acc_all_questions"] == pytest.approx(3 / 6)  # the paper's wording: unjudged = not satisfied
    # I-ACC: image 1 perfect; images 2 and 3 have unjudged questions -> withheld (paper wording: failed)
    assert (s["i_acc"], s["i_acc_withheld"]) == (1.0, 2)
    assert s["i_acc_all_images"] == pytest.approx(1 / 3)
    assert s["by_type"] == {
        "Axes": {"correct": 0, "judged": 0, "q_acc": None},
        "Legend": {"correct": 1, "judged": 2, "q_acc": 0.5},
        "Title": {"correct": 2, "judged": 2, "q_acc": 1.0},
    }


# ---------------------------------------------------------------- GenExam


def exam_item(i: str, subject: str, weights: list[float]) -> Item:
    return Item(
        i,
        "p",
        Rubric.flat([Check(str(k), "?", weight=w) for k, w in enumerate(weights, start=1)]),
        source="genexam",
        meta={"subject": subject},
    )


def test_genexam_strict_relaxed_per_subject_and_overall():
    results = [
        (exam_item("e1", "Physics", [0.2, 0.3, 0.5]), verdicts(q1="yes", q2="yes", q3="yes")),
        (exam_item("e2", "Physics", [0.25, 0.75]), verdicts(q1="yes", q2="withheld")),
        (exam_item("e3", "Chemistry", [0.4, 0.6]), verdicts(q1="no", q2="yes")),
    ]
    ratings = {
        "e1": {"spelling": 2, "readability": 2, "logical_consistency": 2},
        "e2": {"spelling": 2, "readability": 1, "logical_consistency": 2},
    }  # e3: none given
    s = score_genexam(results, ratings)
    e1, e2, e3 = s["items"]
    assert (e1["semantic"], e1["strict"], e1["relaxed"]) == pytest.approx((1.0, 1, 0.7 * 1.0 + 0.05 * 6))
    assert (e2["semantic"], e2["strict"], e2["relaxed"]) == pytest.approx((0.25, 0, 0.7 * 0.25 + 0.05 * 5))
    assert (e3["semantic"], e3["strict"], e3["relaxed"]) == pytest.approx((0.6, 0, 0.7 * 0.6 + 0.05 * 0))
    assert s["ratings_withheld"] == 1
    phys = s["by_subject"]["Physics"]
    assert (phys["count"], phys["strict"], phys["relaxed"], phys["semantic"]) == pytest.approx(
        (2, 50.0, 100 * (1.0 + 0.425) / 2, 62.5)
    )
    assert s["by_subject"]["Chemistry"]["relaxed"] == pytest.approx(42.0)
    # overall pooled over the 3 items (current cal_score.py): strict 1/3, relaxed (1 + 0.425 + 0.42) / 3,
    # semantic (1 + 0.25 + 0.6) / 3
    assert s["overall"]["strict"] == pytest.approx(100 / 3)
    assert s["overall"]["relaxed"] == pytest.approx(100 * 1.845 / 3)
    assert s["overall"]["semantic"] == pytest.approx(100 * 1.85 / 3)
    # the old overall (mean of subject means): strict (50 + 0) / 2, relaxed (71.25 + 42) / 2
    assert s["overall_subject_mean"] == pytest.approx({"strict": 25.0, "relaxed": 56.625, "semantic": 61.25})


def test_genexam_rejects_bad_weights_and_ratings():
    with pytest.raises(ValueError, match="item bad: scoring point weights sum to 0.9"):
        score_genexam([(exam_item("bad", "Math", [0.4, 0.5]), {})], {})
    with pytest.raises(ValueError, match="item r: rating 'readability' must be 0, 1 or 2, got 3"):
        score_genexam(
            [(exam_item("r", "Math", [1.0]), {})], {"r": {"spelling": 2, "readability": 3, "logical_consistency": 2}}
        )


# ---------------------------------------------------------------- GenOlympiad


def olympiad_item(i: str, hard_weights: list[float]) -> Item:
    easy = [Check("g1", "?", gate=True), Check("g2", "?", gate=True)]
    hard = [Check(f"h{k}", "?", weight=w) for k, w in enumerate(hard_weights, start=1)]
    return Item(i, "p", Rubric.flat(easy + hard))


def test_genolympiad_three_outcomes():
    gates_ok = {"g1": "yes", "g2": "yes"}

    def v(**a):
        return {k: Verdict(k, x, "t") for k, x in a.items()}

    results = [
        (olympiad_item("t1", [0.6, 0.4]), v(**gates_ok, h1="yes", h2="no")),  # scored: 0 / 60
        (olympiad_item("t2", [0.6, 0.4]), v(g1="no", g2="withheld")),  # zero: a gate failed
        (olympiad_item("t3", [0.6, 0.4]), v(**gates_ok, h1="withheld", h2="yes")),  # withheld
        (olympiad_item("t4", [2.0, 1.0, 1.0]), v(**gates_ok, h1="yes", h2="yes", h3="no")),  # 100 * 3/4
        (olympiad_item("t5", [0.5, 0.5]), v(**gates_ok, h1="yes", h2="yes")),  # 100 / 100
        (olympiad_item("t6", [0.5, 0.5]), v(g1="yes", h1="yes", h2="yes")),  # g2 missing: withheld
    ]
    s = score_genolympiad(results)
    outcomes = [(t["outcome"], t["strict"], t["relaxed"]) for t in s["tasks"]]
    assert outcomes == [
        ("scored", 0.0, pytest.approx(60.0)),
        ("zero", 0.0, 0.0),
        ("withheld", None, None),
        ("scored", 0.0, pytest.approx(75.0)),
        ("scored", 100.0, 100.0),
        ("withheld", None, None),
    ]
    assert s["counts"] == {"scored": 3, "zero": 1, "withheld": 2} and s["withheld"] == ["t3", "t6"]
    assert s["strict"] == pytest.approx((0 + 0 + 0 + 100) / 4)
    assert s["relaxed"] == pytest.approx((60 + 0 + 75 + 100) / 4)


def test_genolympiad_needs_hard_checks():
    item = Item("g", "p", Rubric.flat([Check("g1", "?", gate=True)]))
    with pytest.raises(ValueError, match="item g: GenOlympiad needs hard"):
        score_genolympiad([(item, {})])


def test_coverage_ignores_verdicts_for_unknown_checks():
    item = Item("i", "p", Rubric.flat([Check("1", "?"), Check("2", "?")]))
    c = coverage([(item, verdicts(q1="no", q9="yes"))])
    assert (c["answered"], c["withheld"], c["missing"], c["coverage"]) == (1, 0, 1, 0.5)


def test_techimage_general_rubric_is_merged_into_every_task():
    from rewards.scorers.techimage import with_general

    general = Rubric(
        (Criterion("general", (Check("legible", "Is all text legible?"), Check("clean", "No artifacts?"))),)
    )
    task = Item("t1", "p", Rubric((Criterion("title", (Check("1", "Title?"),)),)))
    merged = with_general(task, general)
    assert [c.id for c in merged.rubric.checks] == ["1", "general.legible", "general.clean"]
    assert [c.id for c in task.rubric.checks] == ["1"]  # the original item is unchanged
    verdicts = {
        "1": Verdict("1", "yes", "j"),
        "general.legible": Verdict("general.legible", "no", "j"),
        "general.clean": Verdict("general.clean", "yes", "j"),
    }
    scores = score_techimage([(merged, verdicts)])
    # 3 points, 1 failed: accuracy 1 - 1/3; criteria: title e=0 -> 1, general e=1 -> 0.5; mean 0.75
    assert scores["rubric_accuracy"] == pytest.approx(2 / 3)
    assert scores["criterion_score"] == pytest.approx(0.75)
