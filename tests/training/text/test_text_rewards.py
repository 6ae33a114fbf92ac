"""training.text.rewards (QuoteCoverage, RewriteScorer, InstructionScorer, start_state, item_seed)
and training.text.data (load_text_items, rewriter_rows, writer_rows), with fake generators, editors
and judges and hand-computed values."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from PIL import Image

from refine.writers.local_vlm import writer_prompt
from rewards.leakage import load_heldout
from rewards.reward_fns import RubricReward
from rewards.rewriting import quoted_strings, rewrite_messages
from rewards.rubric import Check, Criterion, Item, Rubric, RubricError, Verdict
from training.text.data import load_text_items, rewriter_rows, writer_rows
from training.text.rewards import InstructionScorer, QuoteCoverage, RewriteScorer, StartState, item_seed, start_state

ROOT = Path(__file__).resolve().parents[3]
BIZGENEVAL_TEXT = ROOT / "refine" / "example" / "bizgeneval_text.jsonl"

WHITE, BLACK, GREY = (255, 255, 255), (0, 0, 0), (128, 128, 128)


def page(colour) -> Image.Image:
    return Image.new("RGB", (8, 8), colour)


def make_item(item_id: str, prompt: str, check_ids=("c1", "c2", "c3")) -> Item:
    checks = tuple(Check(c, f"Is {c} right?") for c in check_ids)
    return Item(item_id, prompt, Rubric((Criterion("text", checks),)))


class FakeGenerator:
    """``generate(prompt, seed)`` -> a fixed grey page; records (prompt, seed)."""

    def __init__(self):
        self.calls = []

    def generate(self, prompt, seed):
        self.calls.append((prompt, seed))
        return page(GREY)


class FakeJudge:
    """A ``rewards.judges.base.Judge`` answering from a table: image colour -> {check id: answer}
    (a missing entry is withheld); records (prompts, check ids) of each call."""

    name = "fake"

    def __init__(self, table):
        self.table, self.calls = table, []

    def can_answer(self, check):
        return True

    def judge(self, images, prompts, checks):
        self.calls.append((list(prompts), [[c.id for c in cs] for cs in checks]))
        out = []
        for image, cs in zip(images, checks):
            answers = self.table.get(image.convert("RGB").getpixel((0, 0)), {})
            out.append([Verdict(c.id, answers.get(c.id, "withheld"), self.name) for c in cs])
        return out


class FakeEditor:
    """``edit(image, instruction, failures, seed)`` -> the page ``result`` maps the instruction to
    (default black); records every call."""

    def __init__(self, result=None):
        self.result, self.calls = result or {}, []

    def edit(self, image, instruction, failures, seed):
        self.calls.append((image, instruction, failures, seed))
        return page(self.result.get(instruction, BLACK))


# ------------------------------------------------------------------------------ item_seed
def test_item_seed_is_seed_plus_crc32_of_the_id_mod_2_31():
    # crc32(b"a") = 3904355907, crc32(b"b") = 1908338681
    assert item_seed(0, "a") == 3904355907 - 2**31
    assert item_seed(7, "a") == 1756872266
    assert item_seed(7, "b") == 1908338688
    assert item_seed(7, "a") != item_seed(8, "a")


# ------------------------------------------------------------------------------ QuoteCoverage
def test_quote_coverage_by_hand():
    q = QuoteCoverage(target_chars=10, length_weight=0.5)
    prompt = 'A slide titled "Ab C" and a footer "xyz"'  # wanted: {a, b, c} and {x, y, z}
    # "abc xy0000": 10 chars (closeness 1); covers 3/3 and 2/3 -> coverage 5/6
    assert q.score(prompt, "abc xy0000") == pytest.approx(0.5 * 5 / 6 + 0.5 * 1.0)
    # case-folded: "ABC" covers the first string; 3 chars -> closeness 1 - 7/10
    assert q.score(prompt, "ABC") == pytest.approx(0.5 * 0.5 + 0.5 * 0.3)
    # 25 chars: closeness max(0, 1 - 15/10) = 0; nothing covered
    assert q.score(prompt, "0" * 25) == 0.0
    assert q.score(prompt, "abcxyz" + "0" * 4) == 1.0


def test_quote_coverage_counts_distinct_characters_and_ignores_spaces():
    q = QuoteCoverage(target_chars=4, length_weight=0.0)
    assert q.score('a "a b"', "ab") == 1.0  # the space of the quote is not wanted
    assert q.score('a "aaab"', "aaaa") == 0.5  # distinct: {a, b}, not 3/4
    assert q.score("a “Q3” slide", "q") == 0.5  # curly quotes, case-folded
    assert q.score('"Q3" and "Q3 up"', "Q3") == pytest.approx((1.0 + 2 / 4) / 2)  # mean over the strings


def test_quote_coverage_of_an_item_without_quotes_is_closeness_alone():
    q = QuoteCoverage(target_chars=10, length_weight=0.3)
    assert q.score("a plain slide", "12345") == 0.5  # not 0.3 * 0.5
    assert q.score('empty quotes "  " only', "1234567890") == 1.0
    assert q.score("a plain slide", "") == 0.0


def test_quote_coverage_call_scores_each_item_and_refuses_nothing():
    q = QuoteCoverage(target_chars=2, length_weight=1.0)
    scored = q([make_item("a", '"xy"'), make_item("b", "none")], ["xy", "xyz"])
    assert scored.rewards == [1.0, 0.5] and scored.problems == [None, None]
    assert q.name == "quote_coverage"


@pytest.mark.parametrize("target, weight", [(0, 0.3), (-5, 0.3), (64, -0.1), (64, 1.5), (64, float("nan"))])
def test_quote_coverage_refuses_bad_arguments(target, weight):
    with pytest.raises(ValueError, match="quote_coverage: target_chars must be >= 1 and length_weight in"):
        QuoteCoverage(target, weight)


def test_quote_coverage_accepts_the_bounds():
    assert QuoteCoverage(1, 0.0).score('"ab"', "b") == 0.5
    assert QuoteCoverage(1, 1.0).score('"ab"', "b") == 1.0


# ------------------------------------------------------------------------------ RewriteScorer
ITEM_A = make_item("a", 'A slide titled "Q3 Revenue" with the footer "Acme"')
ITEM_B = make_item("b", 'A poster headlined "Open Day"', check_ids=("d1", "d2"))
JUDGE_TABLE = {GREY: {"c1": "yes", "c2": "yes", "c3": "no", "d1": "yes", "d2": "yes"}}


def test_rewrite_scorer_guards_renders_with_the_item_seed_and_judges_with_the_original_prompt():
    gen, judge = FakeGenerator(), FakeJudge(JUDGE_TABLE)
    scorer = RewriteScorer(gen, judge, max_chars=60, seed=7)
    assert scorer.name == "rubric_pass_rate"
    items = [ITEM_A, ITEM_A, ITEM_A, ITEM_B, ITEM_B, ITEM_A, ITEM_B]
    texts = [
        'Slide: "Q3 Revenue" as the title',  # drops "Acme"
        'Big "Q3 Revenue" title, footer "Acme"',
        'Footer "Acme"; title "Q3 Revenue" in bold',
        '"Open Day" ' + "x" * 60,  # 71 characters
        "   ",
        "no quotes at all",
        'A "Open Day" poster',
    ]
    scored = scorer(items, texts)
    assert scored.problems == [
        'dropped the quoted string "Acme"',
        None,
        None,
        "rewrite of 71 characters is over the cap of 60",
        "empty rewrite",
        'dropped the quoted string "Q3 Revenue" (and 1 more)',
        None,
    ]
    assert scored.rewards == pytest.approx([0.0, 2 / 3, 2 / 3, 0.0, 0.0, 0.0, 1.0])
    # only the kept rewrites are rendered; the two rewrites of item a get the same seed
    assert gen.calls == [(texts[1], 1756872266), (texts[2], 1756872266), (texts[6], 1908338688)]
    # the judge sees the ORIGINAL prompts and the items' checks
    assert judge.calls == [([ITEM_A.prompt, ITEM_A.prompt, ITEM_B.prompt], [["c1", "c2", "c3"]] * 2 + [["d1", "d2"]])]


def test_rewrite_scorer_refusal_reward_and_keep_quoted_off():
    gen = FakeGenerator()
    scored = RewriteScorer(gen, FakeJudge(JUDGE_TABLE), refusal_reward=-1.0)([ITEM_A, ITEM_A], ["", "plain"])
    assert scored.rewards == [-1.0, -1.0] and gen.calls == []
    scored = RewriteScorer(gen, FakeJudge(JUDGE_TABLE), keep_quoted=False, seed=0)([ITEM_A], ["plain"])
    assert scored.problems == [None] and scored.rewards == pytest.approx([2 / 3])
    assert gen.calls == [("plain", item_seed(0, "a"))]


def test_rewrite_scorer_with_nothing_to_render_calls_neither_generator_nor_judge():
    gen, judge = FakeGenerator(), FakeJudge(JUDGE_TABLE)
    scored = RewriteScorer(gen, judge)([ITEM_A], ["x"])
    assert scored.rewards == [0.0] and gen.calls == [] and judge.calls == []


def test_rewrite_scorer_refuses_a_rewrite_that_copies_a_heldout_prompt():
    heldout = load_heldout([BIZGENEVAL_TEXT])
    held_file, held = heldout[0]
    assert held.id == "322" and len(quoted_strings(held.prompt)) == 21
    # an item whose only quote occurs in the held-out prompt, so the copy keeps every quote
    first = quoted_strings(held.prompt)[0]
    assert first == "The AI gender imbalance"
    item = make_item("h", f'A chart titled "{first}"')
    gen, judge = FakeGenerator(), FakeJudge({GREY: {"c1": "yes", "c2": "no", "c3": "no"}})
    scorer = RewriteScorer(gen, judge, max_chars=None, heldout=heldout, seed=3)
    texts = [held.prompt, held.prompt + " Make it crisp.", f'A clean chart, title "{first}" at the top']
    scored = scorer([item] * 3, texts)
    for p in scored.problems[:2]:
        assert p is not None and p.startswith(f"leaks held-out item 322 of {held_file} (similarity ")
    assert scored.problems[0].endswith("(similarity 100)")
    assert scored.problems[2] is None
    assert scored.rewards == pytest.approx([0.0, 0.0, 1 / 3])
    assert gen.calls == [(texts[2], item_seed(3, "h"))]
    assert judge.calls == [([item.prompt], [["c1", "c2", "c3"]])]


# ------------------------------------------------------------------------------ start_state
def test_start_state_failures_are_the_checks_answered_no_only():
    item = make_item("w", 'A slide "Hi"')
    judge = FakeJudge({WHITE: {"c1": "yes", "c2": "no"}})  # c3 withheld
    start = start_state(item, page(WHITE), RubricReward(judge))
    assert [(c.id, v.answer) for c, v in start.failures] == [("c2", "no")]
    assert start.score == pytest.approx(1 / 3)  # a withheld check counts as not passed in the score
    assert judge.calls == [([item.prompt], [["c1", "c2", "c3"]])]
    none = start_state(item, page(GREY), RubricReward(judge))  # every verdict withheld
    assert none.failures == [] and none.score is None


# ------------------------------------------------------------------------------ InstructionScorer
def test_instruction_scorer_reward_is_after_minus_before():
    item = make_item("w", 'A slide "Hi"')
    table = {
        WHITE: {"c1": "yes", "c2": "no", "c3": "no"},  # before: 1/3
        BLACK: {"c1": "yes", "c2": "yes", "c3": "yes"},  # 3/3
        GREY: {"c1": "no", "c2": "no", "c3": "no"},  # 0/3
    }
    judge = FakeJudge(table)
    start = start_state(item, page(WHITE), RubricReward(judge))
    assert [c.id for c, _ in start.failures] == ["c2", "c3"]
    editor = FakeEditor({"Break it": GREY})
    scorer = InstructionScorer(editor, judge, {"w": start}, seed=5)
    assert scorer.name == "rubric_pass_rate_gain"
    judge.calls.clear()
    scored = scorer([item, item, item, item], ["Make c2 and c3 right", "", " \n", "Break it"])
    assert scored.rewards == pytest.approx([2 / 3, 0.0, 0.0, -1 / 3])
    assert scored.problems == [None, "empty instruction", "empty instruction", None]
    # the editor is not called for an empty instruction; it gets the start image, its failures, the item seed
    assert [(im is start.image, text, fails is start.failures, seed) for im, text, fails, seed in editor.calls] == [
        (True, "Make c2 and c3 right", True, item_seed(5, "w")),
        (True, "Break it", True, item_seed(5, "w")),
    ]
    assert [prompts for prompts, _ in judge.calls] == [[item.prompt], [item.prompt]]


def test_instruction_scorer_gives_none_when_a_score_is_withheld():
    item = make_item("w", "p")
    judge = FakeJudge({WHITE: {"c1": "yes"}})  # BLACK and GREY: every verdict withheld
    starts = {"w": start_state(item, page(WHITE), RubricReward(judge))}
    scored = InstructionScorer(FakeEditor(), judge, starts)([item], ["do it"])
    assert scored.rewards == [None] and scored.problems == [None]
    unknown_start = {"w": StartState(page(GREY), [], None)}
    scored = InstructionScorer(FakeEditor({"x": WHITE}), judge, unknown_start)([item], ["x"])
    assert scored.rewards == [None]


# ------------------------------------------------------------------------------ text_data
def rubric_row(k: int) -> dict:
    return {
        "id": f"doc{k}",
        "prompt": f'A slide titled "Title {k}"',
        "criteria": [{"name": "title", "checks": [{"id": "t", "question": "Is the title shown?"}]}],
    }


def write_rows(path: Path, rows) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def test_load_text_items_splits_a_rubric_file(tmp_path):
    path = write_rows(tmp_path / "docs.jsonl", [rubric_row(k) for k in range(10)])
    train, held = load_text_items(str(path), n=999, seed=3, val_fraction=0.2)
    assert (len(train), len(held)) == (8, 2)
    ids = [it.id for it in train] + [it.id for it in held]
    assert sorted(ids) == sorted(f"doc{k}" for k in range(10)) and len(set(ids)) == 10  # disjoint, complete
    # each part keeps the file's order
    assert [it.id for it in train] == sorted((it.id for it in train), key=lambda s: int(s[3:]))
    assert [it.id for it in held] == sorted((it.id for it in held), key=lambda s: int(s[3:]))
    again = load_text_items(str(path), n=0, seed=3, val_fraction=0.2)
    assert [[it.id for it in part] for part in again] == [[it.id for it in train], [it.id for it in held]]
    splits = {tuple(it.id for it in load_text_items(str(path), 0, s, 0.2)[1]) for s in range(6)}
    assert len(splits) > 1  # the seed moves the split
    assert train[0].prompt.startswith('A slide titled "Title ')


def test_load_text_items_keeps_one_item_on_each_side(tmp_path):
    path = write_rows(tmp_path / "docs.jsonl", [rubric_row(k) for k in range(10)])
    assert [len(p) for p in load_text_items(str(path), 0, 0, 0.01)] == [9, 1]
    assert [len(p) for p in load_text_items(str(path), 0, 0, 0.99)] == [1, 9]
    two = write_rows(tmp_path / "two.jsonl", [rubric_row(0), rubric_row(1)])
    assert [len(p) for p in load_text_items(str(two), 0, 0, 0.5)] == [1, 1]
    one = write_rows(tmp_path / "one.jsonl", [rubric_row(0)])
    with pytest.raises(RubricError, match=r"1 item\(s\); training needs at least 2"):
        load_text_items(str(one), 0, 0, 0.5)


def test_load_text_items_refuses_a_file_with_a_bad_row_in_one_line(tmp_path):
    path = write_rows(tmp_path / "bad.jsonl", [rubric_row(0), rubric_row(1), "{not json", rubric_row(3)])
    with pytest.raises(RubricError) as e:
        load_text_items(str(path), 0, 0, 0.25)
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith(f"data.file={path}: 1 bad row(s); first: {path}:3")
    dup = write_rows(tmp_path / "dup.jsonl", [rubric_row(0), rubric_row(0), rubric_row(1)])
    with pytest.raises(RubricError, match="duplicate item id"):
        load_text_items(str(dup), 0, 0, 0.25)


def test_load_text_items_without_a_file_is_the_procedural_split():
    from training.procedural.data import make_dataset

    train, held = load_text_items(None, 12, 0, 0.25)
    want_train, want_held = make_dataset(12, 0, val_fraction=0.25)
    assert (len(train), len(held)) == (9, 3)
    assert [it.id for it in train] == [it.id for it in want_train]
    assert [it.id for it in held] == [it.id for it in want_held]
    assert not {it.id for it in train} & {it.id for it in held}


def test_load_text_items_without_a_file_keeps_one_item_on_each_side():
    # round(4 * 0.1) = 0 and round(4 * 0.9) = 4: the held-out part would be empty or everything
    assert [len(p) for p in load_text_items(None, 4, 0, 0.1)] == [3, 1]
    assert [len(p) for p in load_text_items(None, 4, 0, 0.9)] == [1, 3]
    with pytest.raises(ValueError, match=r"data.n=1: training needs at least 2 items"):
        load_text_items(None, 1, 0, 0.5)


def test_rewriter_rows_hold_the_request_and_the_id():
    rows = rewriter_rows([ITEM_A, ITEM_B])
    assert rows == [
        {"prompt": rewrite_messages(ITEM_A.prompt), "item_id": "a"},
        {"prompt": rewrite_messages(ITEM_B.prompt), "item_id": "b"},
    ]
    assert rows[0]["prompt"][0]["content"].endswith("Prompt: " + ITEM_A.prompt)


def test_writer_rows_leave_out_items_with_no_failures():
    judge = FakeJudge(
        {
            WHITE: {"c1": "yes", "c2": "no", "c3": "yes"},  # one failure
            BLACK: {"c1": "yes", "c2": "yes", "c3": "yes"},  # none
            GREY: {"c1": "yes"},  # c2, c3 withheld: nothing failed
        }
    )
    items = [make_item("w", 'A "W"'), make_item("k", 'A "K"'), make_item("g", 'A "G"')]
    starts = {
        it.id: start_state(it, page(colour), RubricReward(judge)) for it, colour in zip(items, (WHITE, BLACK, GREY))
    }
    rows = writer_rows(items, starts)
    assert [r["item_id"] for r in rows] == ["w"]
    assert rows[0]["image"].tobytes() == starts["w"].image.tobytes()  # small pages are kept as they are
    big = dict(starts, w=dataclasses.replace(starts["w"], image=Image.new("RGB", (1600, 900), "white")))
    assert writer_rows(items, big)[0]["image"].size == (768, 432)  # shrunk as the trained writer shrinks it
    assert rows[0]["prompt"] == [{"role": "user", "content": writer_prompt(items[0], starts["w"].failures)}]
    assert "Is c2 right?" in rows[0]["prompt"][0]["content"] and "Is c1 right?" not in rows[0]["prompt"][0]["content"]
