"""The engine-drawn documents (documents.engines): matplotlib charts and Chromium pages, their
truth taken from the engines, the defects, the questions' truth, the rows and the oracle VLM.

The Chromium tests skip when Debian's ``chromium`` is missing, unless ``RUBRICLOOP_REQUIRE_CHROMIUM``
is set (``.ci/run`` sets it and installs chromium): then they fail.
"""

import json
import os
import random
import subprocess
from dataclasses import asdict

import numpy as np
import pytest
from PIL import Image

from documents.engines import DEFECT_KINDS, build_split, doc_rows, make_doc, split_seeds, write_rows
from documents.engines.browser import chromium_path
from documents.engines.model import Spec, digit_change, drop_word, inject, swap_words, typo
from documents.engines.oracle import OracleServer
from documents.engines.score import judge_split, make_judge, score_verdicts, tally
from rewards.importers import load_items
from rewards.judges.vlm import VLMJudge

needs_chromium = pytest.mark.skipif(
    chromium_path() is None and not os.environ.get("RUBRICLOOP_REQUIRE_CHROMIUM"),
    reason="Debian chromium is not installed (.ci/run installs it and sets RUBRICLOOP_REQUIRE_CHROMIUM)",
)


@pytest.fixture(scope="module")
def chart_docs(tmp_path_factory):
    """One chart of each kind (dev seeds 0..4: bar, grouped bar, line, pie, donut)."""
    return build_split("dev", "matplotlib", tmp_path_factory.mktemp("charts"), n=5)


@pytest.fixture(scope="module")
def page_docs(tmp_path_factory):
    """One page of each kind (dev seeds 0..5: slide, dashboard, landing, poster, table, menu)."""
    if chromium_path() is None and not os.environ.get("RUBRICLOOP_REQUIRE_CHROMIUM"):
        pytest.skip("Debian chromium is not installed")
    return build_split("dev", "chromium", tmp_path_factory.mktemp("pages"), n=6)


def contrast_share(image: Image.Image, box) -> float:
    """Share of the box's pixels whose grey differs from the box's median grey by more than 60."""
    grey = np.asarray(image.convert("L").crop(box), dtype=np.int16)
    return float((np.abs(grey - np.median(grey)) > 60).mean())


def tesseract_line(image: Image.Image, box, angle: int = 0) -> str:
    """Tesseract's read (one line, psm 7) of the box, padded by 4 px, upsampled 3x, turned upright."""
    x0, y0, x1, y1 = box
    crop = image.crop((x0 - 4, y0 - 4, x1 + 4, y1 + 4)).convert("L")
    crop = crop.rotate(-angle, expand=True, fillcolor=255) if angle else crop
    crop = crop.resize((crop.width * 3, crop.height * 3), Image.LANCZOS)
    if np.asarray(crop).mean() < 128:  # light text on a dark band
        crop = Image.eval(crop, lambda v: 255 - v)
    out = subprocess.run(["tesseract", "stdin", "stdout", "--psm", "7"], input=_png(crop), capture_output=True)
    return out.stdout.decode().strip()


def _png(image: Image.Image) -> bytes:
    import io

    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def test_splits_and_defect_functions():
    assert split_seeds("dev", 3) == [0, 1, 2] and split_seeds("report", 2) == [1000, 1001]
    with pytest.raises(ValueError, match="split must be one of"):
        split_seeds("test", 2)
    rng = random.Random(0)
    assert typo("Revenue", rng) != "Revenue" and typo("ab", rng) is None
    changed = digit_change("$4.2M", rng)
    assert len(changed) == 5 and sum(a != b for a, b in zip(changed, "$4.2M")) == 1 and changed[2] == "."
    assert sorted(swap_words("Book a demo", rng).split()) == sorted("Book a demo".split())
    assert swap_words("Revenue", rng) is None and drop_word("Book demo", rng) is None
    assert len(drop_word("Start free trial", rng).split()) == 2


def test_inject_changes_only_the_chosen_elements_and_respects_can_miss():
    texts = ["Garlic Bread 12", "Tomato Soup", "Caesar Salad bowl", "Crispy Calamari", "Lemon Tart 4", "Apple Pie"]
    specs = [Spec(f"e{i}", "list_item", t, can_miss=i % 2 == 0) for i, t in enumerate(texts)]
    out, defects = inject(specs, 4, random.Random(3), {"list_item"})
    assert len(defects) == 4 and {d.kind for d in defects} <= set(DEFECT_KINDS)
    by = {s.id: s.text for s in out}
    for d in defects:
        assert d.correct == next(s.text for s in specs if s.id == d.element)
        if d.kind == "missing":
            assert d.element not in by and int(d.element[1:]) % 2 == 0
        else:
            assert by[d.element] == d.shown != d.correct
    untouched = [s for s in specs if s.id not in {d.element for d in defects}]
    assert all(by[s.id] == s.text for s in untouched)


def test_a_chart_draws_the_same_truth_per_seed(tmp_path, chart_docs):
    again = make_doc("matplotlib", 1, "dev", tmp_path)
    first = next(d for d in chart_docs if d.seed == 1)
    assert [asdict(e) for e in again.elements] == [asdict(e) for e in first.elements]
    assert again.questions == first.questions and again.defects == first.defects
    assert np.array_equal(np.asarray(Image.open(again.image_path)), np.asarray(Image.open(first.image_path)))


def test_chart_boxes_lie_on_their_text(chart_docs):
    for doc in chart_docs:
        for variant, page in doc.pages.items():
            image = Image.open(page.image_path)
            assert image.size == doc.size == (880, 600)
            for e in page.elements:
                assert contrast_share(image, e.box) > 0.04, (doc.id, variant, e.id, e.text, e.box)
    bar = chart_docs[0].pages["clean"]
    image = Image.open(bar.image_path)
    for eid in ("chart_title", "axis-y"):
        e = bar.element(eid)
        assert tesseract_line(image, e.box, e.angle) == e.text, (eid, e.text)
    assert bar.element("axis-y").angle == 90 and bar.element("axis-y").box[3] - bar.element("axis-y").box[1] > 60


def test_chart_roles_cover_the_kinds(chart_docs):
    roles = {e.role for d in chart_docs for e in d.elements}
    assert {"chart_title", "axis_title", "tick_label", "legend_entry", "value_label", "callout", "pie_label",
            "line_end_label", "source_note"} <= roles  # fmt: skip
    pie = next(d for d in chart_docs if d.kind == "pie")
    assert any(e.color == "#ffffff" for e in pie.elements if e.role == "value_label")  # white on wedges


def test_questions_have_the_answers_the_truth_gives(chart_docs):
    for doc in chart_docs:
        clean = {e.id: e for e in doc.pages["clean"].elements}
        defect = {e.id: e for e in doc.pages["defect"].elements}
        broken = {d.element: d for d in doc.defects}
        assert doc.defects and any(q.truth_kind in DEFECT_KINDS for q in doc.questions)
        for q in doc.questions:
            assert f'"{q.asked}"' in q.question
            if q.truth_kind == "exact":
                assert q.answers == {"clean": "yes", "defect": "yes"}
                assert clean[q.element].text == defect[q.element].text == q.asked
            elif q.truth_kind in DEFECT_KINDS:
                assert q.answers == {"clean": "yes", "defect": "no"} and clean[q.element].text == q.asked
                assert broken[q.element].kind == q.truth_kind
                assert q.element not in defect if q.truth_kind == "missing" else defect[q.element].text != q.asked
            else:
                assert q.answers == {"clean": "no", "defect": "no"}
                assert clean[q.element].text != q.asked and defect[q.element].text != q.asked


def test_rows_load_as_rubric_items_with_their_truth(tmp_path, chart_docs):
    docs = build_split("dev", "matplotlib", tmp_path, n=2)
    path = write_rows(docs, tmp_path)
    items, errors = load_items(path)
    assert not errors and [it.id for it in items] == [f"{d.id}-{v}" for d in docs for v in ("clean", "defect")]
    for it, row in zip(items, [r for d in docs for r in doc_rows(d)]):
        assert Image.open(it.image).size == (880, 600)
        assert [c.id for c in it.rubric.checks] == list(row["meta"]["answers"])
        assert it.meta["variant"] in it.id and all(c.spec is not None for c in it.rubric.checks)
    truth = json.loads((tmp_path / "truth.json").read_text())
    assert [t["id"] for t in truth] == [d.id for d in docs]
    assert build_split("dev", "matplotlib", tmp_path, n=2)[0].truth() == docs[0].truth()  # loaded from the cache


def test_the_oracle_vlm_answers_every_question_from_the_truth(chart_docs):
    doc = chart_docs[3]
    items = {it.meta["variant"]: it for it in _items(doc)}
    with OracleServer(chart_docs) as server:
        judge = VLMJudge(base_url=server.base_url, model="oracle", api_key_env=None, response_format="off")
        for variant, page in doc.pages.items():
            checks = items[variant].rubric.checks
            verdicts = judge.judge([Image.open(page.image_path)], ["x"], [checks])[0]
            assert [v.answer for v in verdicts] == [q.answers[variant] for q in doc.questions]
        assert server.unknown == 0 and server.questions == 2 * len(doc.questions)


def _items(doc):
    from rewards.importers import parse_row

    return [parse_row(r, doc.id, doc.image_path.parent) for r in doc_rows(doc)]


@pytest.mark.slow
@needs_chromium
def test_a_page_draws_the_same_truth_per_seed(tmp_path, page_docs):
    again = make_doc("chromium", 5, "dev", tmp_path)
    first = next(d for d in page_docs if d.seed == 5)
    assert [asdict(e) for e in again.elements] == [asdict(e) for e in first.elements]
    assert again.questions == first.questions


@pytest.mark.slow
@needs_chromium
def test_page_boxes_lie_on_their_text_and_read_back(page_docs):
    assert [d.kind for d in page_docs] == ["slide", "dashboard", "landing", "poster", "table", "menu"]
    for doc in page_docs:
        for variant, page in doc.pages.items():
            image = Image.open(page.image_path)
            assert image.size == doc.size
            drawn = {e.id for e in page.elements}
            assert {d.element for d in doc.defects if d.kind == "missing" and variant == "defect"}.isdisjoint(drawn)
            for e in page.elements:
                assert contrast_share(image, e.box) > 0.04, (doc.id, variant, e.id, e.text, e.box)
    single = [d for d in page_docs if len(d.pages["clean"].element("title").lines) == 1]
    assert len(single) >= 4
    for doc in single:
        page = doc.pages["clean"]
        title = page.element("title")
        assert tesseract_line(Image.open(page.image_path), title.box) == title.text, (doc.id, title.text)
    menu = page_docs[5].pages["clean"]
    image = Image.open(menu.image_path)
    for e in [e for e in menu.elements if e.role in ("section_heading", "item_price")][:4]:
        assert tesseract_line(image, e.box) == e.text, (e.id, e.text)


@pytest.mark.slow
@needs_chromium
def test_page_roles_and_question_forms_cover_the_kinds(page_docs):
    roles = {e.role for d in page_docs for e in d.elements}
    wanted = {"title", "subtitle", "section_heading", "list_item", "card_label", "card_value", "table_header"}
    wanted |= {"table_cell", "nav_item", "button", "badge", "footer", "source_note", "item_name", "item_price"}
    assert wanted <= roles
    icons = [e for d in page_docs for e in d.elements if e.role == "icon"]
    assert len(icons) >= 7 and all(not e.text.isalnum() for e in icons)  # glyphs beside text, never letters
    assert all(q.element not in {e.id for e in icons} for d in page_docs for q in d.questions)
    menu = page_docs[5]
    left = [e for e in menu.elements if e.role == "item_name" and e.context["column_side"] == "left"]
    right = [e for e in menu.elements if e.role == "item_name" and e.context["column_side"] == "right"]
    assert max(e.box[2] for e in left) < min(e.box[0] for e in right)  # two columns


def test_no_question_names_an_icon_or_a_numeric_tick_and_bars_on_their_side_say_so(chart_docs):
    for doc in chart_docs:
        roles = {e.id: e for e in doc.elements}
        for q in doc.questions:
            assert roles[q.element].role != "icon" and "-n" not in q.element
    flat = chart_docs[0]  # seed 0: horizontal bars (categories on y, numbers on x)
    assert any(e.id == "tick-y-0" for e in flat.elements) and any(e.id.startswith("tick-x-n") for e in flat.elements)
    forms = {q.kind for q in flat.questions}
    assert "value_label_above" not in forms and "x_tick" not in forms


def test_the_benchmark_scores_a_judge_runs_verdicts_against_the_rows_truth(tmp_path):
    docs = build_split("dev", "matplotlib", tmp_path, n=1)
    rows = write_rows(docs, tmp_path)
    lines = [
        {"item_id": r["id"], "check": c["id"], "question": c["question"], "answer": "yes", "reason": ""}
        for r in doc_rows(docs[0])
        for c in r["criteria"][0]["checks"]
    ]
    verdicts = tmp_path / "verdicts.jsonl"
    verdicts.write_text("".join(json.dumps(v) + "\n" for v in lines))
    t = tally(score_verdicts(verdicts, rows))
    n_yes = sum(a == "yes" for q in docs[0].questions for a in q.answers.values())
    assert (
        t["n_true"] == t["true_yes"] == n_yes and t["false_yes"] == t["n_false"] == 2 * len(docs[0].questions) - n_yes
    )
    verdicts.write_text(json.dumps(lines[0] | {"check": "q99"}) + "\n")
    with pytest.raises(ValueError, match="verdicts.jsonl:1: item .* check 'q99' is not in"):
        score_verdicts(verdicts, rows)


def test_the_benchmark_tallies_true_and_false_questions_apart():
    rows = [{"truth": t, "answer": a} for t, a in [("yes", "yes"), ("yes", "no"), ("yes", "withheld"), ("no", "yes")]]
    rows += [{"truth": "no", "answer": "no"}] * 2
    assert tally(rows) == {
        "n_true": 3, "true_yes": 1, "false_no": 1, "true_withheld": 1,
        "n_false": 3, "true_no": 2, "false_yes": 1, "false_withheld": 0,
    }  # fmt: skip


def test_the_mixed_judge_with_the_oracle_vlm_gets_every_check_the_ocr_judge_leaves(tmp_path):
    docs = build_split("dev", "matplotlib", tmp_path, n=1)
    write_rows(docs, tmp_path)
    with OracleServer(docs) as server:
        records = judge_split(make_judge("ocr_vlm", server.base_url), tmp_path, "ocr_vlm+oracle")
        alone = judge_split(make_judge("vlm", server.base_url), tmp_path, "vlm+oracle")
    assert len(records) == len(alone) == 2 * len(docs[0].questions) and server.unknown == 0
    assert all(r["decided_by"] == "vlm:oracle" and r["answer"] == r["truth"] for r in alone)
    by_vlm = [r for r in records if r["decided_by"] == "vlm:oracle"]
    assert server.questions == len(by_vlm) + len(alone)
    assert all(r["answer"] == r["truth"] for r in by_vlm) and all(r["answer"] != "withheld" for r in records)
    with pytest.raises(ValueError, match="judge=ocr: has no VLM judge"):
        make_judge("ocr", server.base_url)
