"""The adversarial set (documents.adversarial) and the report's metric functions
(benchmarks/adversarial_refine.py) on tiny hand-made inputs."""

import importlib.util
import json
import random
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from documents.adversarial import (
    ERROR_KINDS,
    QTYPES,
    dropped_letter,
    make_checks,
    make_document,
    missing_word,
    split_seeds,
    swapped_words,
    write_rows,
    wrong_date,
    wrong_number,
)
from rewards.text.ocr.text_match import Line, Word

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("adversarial_refine", ROOT / "benchmarks" / "adversarial_refine.py")
report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(report)


def line(text: str, x: int, y: int) -> Line:
    """An OCR line of ``text`` at (x, y), 10 px per character."""
    words, cx = [], x
    for w in text.split():
        words.append(Word(w, (cx, y, cx + 10 * len(w), y + 12)))
        cx += 10 * len(w) + 10
    return Line(tuple(words))


def test_splits():
    assert split_seeds("dev", 3) == [0, 1, 2]
    assert split_seeds("report", 2) == [1000, 1001]
    with pytest.raises(ValueError):
        split_seeds("test", 2)


def test_a_document_renders_deterministically_per_seed():
    a, b = make_document(5), make_document(5)
    assert a.clean.tobytes() == b.clean.tobytes()
    assert a.erroneous.tobytes() == b.erroneous.tobytes()
    assert a.questions == b.questions and a.elements == b.elements and a.errors == b.errors
    assert make_document(6).clean.tobytes() != a.clean.tobytes()
    truth = json.loads(json.dumps(a.truth()))
    assert [e["id"] for e in truth["elements"]] == [e.id for e in a.elements]
    assert truth["errors"][0]["correct"] == a.errors[0].correct


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 1000, 1001, 1002, 1003])
def test_clean_and_erroneous_differ_only_at_the_errors_element_boxes(seed):
    doc = make_document(seed)
    diff = (np.asarray(doc.clean) != np.asarray(doc.erroneous)).any(2)
    inside = np.zeros(diff.shape, bool)
    for err in doc.errors:
        x0, y0, x1, y1 = doc.element(err.element).box
        box = diff[max(0, y0) : y1, max(0, x0) : x1]
        assert box.any(), f"{doc.id}: error {err} changed no pixel"
        inside[max(0, y0) : y1, max(0, x0) : x1] = True
    assert doc.errors
    assert not (diff & ~inside).any()


@pytest.mark.parametrize("seed", range(8))
def test_true_answers_follow_the_ground_truth(seed):
    doc = make_document(seed)
    erroneous = {err.element: err for err in doc.errors}
    for err in doc.errors:
        e = doc.element(err.element)
        assert e.shown == err.shown != e.correct == err.correct
        assert (e.slot is not None) == (err.shown == "")
    for q in doc.questions:
        e = doc.element(q.element)
        if q.qtype in ERROR_KINDS:  # asked of the erroneous element, the correct text
            assert q.element in erroneous and q.asked == e.correct
            assert (q.answer_clean, q.answer_erroneous) == ("yes", "no")
        elif q.qtype in ("exact", "axis_title"):
            assert q.element not in erroneous and q.asked == e.correct == e.shown
            assert (q.answer_clean, q.answer_erroneous) == ("yes", "yes")
        else:  # wrong_element: a sibling's text, on the page but not in this element
            assert q.qtype == "wrong_element" and q.asked != e.correct
            assert any(o.correct == q.asked and o.role == e.role for o in doc.elements)
            assert (q.answer_clean, q.answer_erroneous) == ("no", "no")
        assert f'"{q.asked}"' in q.question or f"'{q.asked}'" in q.question
    assert {c.id for c in make_checks(doc)} == {q.id for q in doc.questions if q.answer_clean == "yes"}


def test_the_clean_page_reads_what_its_rubric_asks():
    """Tesseract reads each rubric question's string in its element's box on the clean page."""
    read = report.OCRJudge().read
    doc = make_document(1)  # a chart: the rotated y-axis title too
    for q in doc.questions:
        if q.answer_clean == "yes":
            e = doc.element(q.element)
            assert report.reads_in_box(doc.clean, e.box, q.asked, read, e.angle), (q.question, e)


@pytest.mark.parametrize("split", ["dev", "report"])
def test_every_error_kind_and_question_type_occurs_across_16_seeds(split):
    docs = [make_document(s) for s in split_seeds(split, 16)]
    assert {err.kind for d in docs for err in d.errors} == set(ERROR_KINDS)
    assert {q.qtype for d in docs for q in d.questions} == set(QTYPES)
    assert {d.kind for d in docs} == {"slide", "chart", "dashboard", "poster"}
    decoys = [d for d in docs if any(err.kind == "decoy" for err in d.errors)]
    for d in decoys:  # the title's wanted string stands inside a longer line elsewhere
        title = d.element("title").correct
        assert any(title in e.correct and e.correct != title for e in d.elements)
    axes = [d.element("axis-y") for d in docs if d.kind == "chart"]
    assert axes and all(a.angle == 90 and a.box[3] - a.box[1] > a.box[2] - a.box[0] for a in axes)


def test_the_errors_are_the_mistakes_named():
    rng = random.Random(0)
    dates = set()
    for _ in range(20):
        n = wrong_number("18,450", rng)
        assert n != "18,450" and len(n) == 6 and sum(a != b for a, b in zip(n, "18,450")) in (1, 2)
        d = wrong_date("July 12-14, 2025", rng)
        assert d != "July 12-14, 2025" and len(d) == 16
        assert all(x == y or (x.isdigit() and y.isdigit()) for x, y in zip(d, "July 12-14, 2025"))
        dates.add(d)
        assert missing_word("Fresh coffee served daily", rng).count(" ") == 2
        s = swapped_words("Fresh coffee served daily", rng)
        assert s != "Fresh coffee served daily" and sorted(s.split()) == sorted("Fresh coffee served daily".split())
        t = dropped_letter("BREAKFAST", rng)
        assert len(t) == 8 and t[0] == "B" and t[-1] == "T"
    assert "July 21-14, 2025" in dates


def test_a_contradiction_is_counted():
    clean = [line("Revenue 18,450", 0, 0)]
    erroneous = [line("Revenue 18,540", 0, 0)]
    added = [line("Revenue 18,540", 0, 0), line("18,450", 0, 300)]
    fixed = [line("Revenue 18,450", 0, 0)]
    assert report.is_contradiction("18,540", "18,450", added, clean, erroneous)
    assert not report.is_contradiction("18,540", "18,450", fixed, clean, erroneous)
    assert not report.is_contradiction("18,540", "18,450", erroneous, clean, erroneous)  # not fixed, no copy


def test_a_missing_word_fixed_in_place_is_no_contradiction_and_a_copy_is():
    right, wrong = "Source: Internal sales data", "Source: Internal sales"
    clean, erroneous = [line(right, 0, 0)], [line(wrong, 0, 0)]
    assert not report.is_contradiction(wrong, right, [line(right, 0, 0)], clean, erroneous)
    assert report.is_contradiction(wrong, right, [line(wrong, 0, 0), line(right, 0, 200)], clean, erroneous)


def test_a_decoy_alone_is_no_contradiction():
    """The title still wrong, the wanted string only inside the decoy heading: nothing was added."""
    erroneous = [line("BREAKAST", 0, 0), line("BREAKFAST COMBOS", 0, 200)]
    clean = [line("BREAKFAST", 0, 0), line("BREAKFAST COMBOS", 0, 200)]
    assert not report.is_contradiction("BREAKAST", "BREAKFAST", erroneous, clean, erroneous)
    assert report.is_contradiction("BREAKAST", "BREAKFAST", erroneous + [line("BREAKFAST", 0, 400)], clean, erroneous)


def test_a_duplicate_is_counted():
    clean = [line("Next steps", 0, 0), line("Team", 0, 100)]
    out = [line("Next steps", 0, 0), line("Team", 0, 100), line("Next steps", 300, 300)]
    assert report.written_twice("Next steps", out, clean)
    assert not report.written_twice("Team", out, clean)
    assert not report.written_twice("Next steps", clean, clean)
    decoy = [line("BREAKFAST", 0, 0), line("BREAKFAST COMBOS", 0, 100)]
    assert not report.written_twice("BREAKFAST", decoy, decoy)  # twice on the clean page too


def test_additions_outside_the_slot_and_rewrites_elsewhere():
    element, slot = (100, 100, 200, 120), (100, 95, 400, 125)
    placed_in_slot = {"action": "place", "box": [250, 100, 320, 118], "text": "x"}
    placed_loose = {"action": "place", "box": [500, 10, 560, 24], "text": "x"}
    rewritten_elsewhere = {"action": "replace", "box": [10, 300, 90, 320], "text": "x"}
    skipped = {"action": "skip: no slot", "box": [500, 10, 560, 24], "text": "x"}
    assert not report.outside_element(placed_in_slot, element, slot)
    assert report.outside_element(placed_in_slot, element, None)
    assert report.outside_element(placed_loose, element, slot)
    assert report.outside_element(rewritten_elsewhere, element, None)
    assert not report.outside_element(skipped, element, slot)


def test_damaged_pixels_count_graphics_changed_outside_the_text_boxes():
    before = Image.new("RGB", (50, 40), (255, 255, 255))
    a = np.asarray(before).copy()
    a[5:10, 5:20] = 0  # a rewritten string, inside its box
    a[30:32, 40:43] = 0  # a bullet erased: 6 pixels outside every box
    after = Image.fromarray(a)
    assert report.damaged_pixels(before, after, [(4, 4, 21, 11)]) == 6
    assert report.damaged_pixels(before, after, [(4, 4, 21, 11), (40, 30, 43, 32)]) == 0
    with pytest.raises(ValueError):
        report.damaged_pixels(before, before.resize((10, 10)), [])


def test_judge_figures_count_per_page_and_type():
    def row(page, qtype, truth, answer, element=True, vlm=0):
        return {
            "page": page,
            "qtype": qtype,
            "truth": truth,
            "answer": answer,
            "seconds": 0.0,
            "locators": 1 if element else 0,
            "vlm_locators": vlm,
            "element": element,
        }

    rows = [
        row("clean", "decoy", "yes", "yes"),
        row("erroneous", "decoy", "no", "yes", element=False),  # a false yes, its locator dropped
        row("clean", "axis_title", "yes", "withheld", vlm=1),
        row("erroneous", "axis_title", "yes", "no", vlm=1),
    ]
    fig = report.judge_figures(rows)
    assert fig["by_page"]["erroneous"]["decoy"]["false_yes"] == 1
    assert fig["by_page"]["erroneous"]["axis_title"]["false_no"] == 1
    assert fig["by_page"]["clean"]["axis_title"]["withheld"] == 1
    assert fig["all"]["n"] == 4 and fig["false_yes_locator_dropped"] == 1 and fig["false_yes_without_element"] == 1
    assert (fig["locators_represented"], fig["locators_to_vlm"]) == (2, 1)


def test_write_rows_loads_as_rubric_items(tmp_path):
    from rewards.importers import load_items

    path = write_rows("report", 2, tmp_path)
    items, errors = load_items(path)
    assert errors == [] and [it.id for it in items] == ["slide-1000", "chart-1001"]
    doc = make_document(1001)
    assert items[1].image == tmp_path / "chart-1001_erroneous.png" and items[1].image.is_file()
    assert [c.question for c in items[1].rubric.checks] == [c.question for c in make_checks(doc)]
    assert [c.tag for c in items[1].rubric.checks] == [c.tag for c in make_checks(doc)]
    with pytest.raises(ValueError):
        write_rows("report", 1, tmp_path, page="best")


def test_an_element_tesseract_misreads_on_the_clean_page_counts_fixed_when_it_reads_as_there():
    """Report poster 1007's footer "More at www.filmweek.org" reads "More at wwwfilmweek.org" in
    its crop of the clean page itself: a best image whose footer is the clean one is fixed, the
    erroneous one ("at More ...") is not (``fixed_in_box``, beside ``reads_in_box``)."""
    read = report.OCRJudge().read
    doc = make_document(1007)
    e = doc.element("footer")
    assert not report.reads_in_box(doc.clean, e.box, e.correct, read)
    assert report.fixed_in_box(doc, doc.clean, e.box, e.correct, read)
    assert not report.fixed_in_box(doc, doc.erroneous, e.box, e.correct, read)


def test_a_copy_written_after_its_own_first_words_is_counted_twice():
    # the eleventh tester's league table (dev seed 5): the correct footer written again after its
    # own first words holds the whole string once, and was not counted
    text = "Top two clubs are promoted; the bottom club enters the play-off."
    clean = [line(text, 0, 0)]
    out = [line("Top two clubs are promoted; the bottom club enters " + text, 0, 0)]
    assert report.written_twice(text, out, clean)
    assert not report.written_twice(text, clean, clean)
