"""An eleventh tester's seeded pages (``benchmarks/fresh11_pages.py``; issues 31 and 32): a seed draws
a clean and a defect page whose truth boxes sit on ink, whose defects show on the defect page only, and
whose questions name drawn elements with the strings the truth holds; on a matplotlib page (seed 1,
the slope chart) and a Chromium page (seed 4, the recipe card)."""

import shutil

import numpy as np
import pytest
from fresh11_drawn import changed_outside, draw
from PIL import Image

from benchmarks import fresh11_pages, tester_set

needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed")


@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    """fresh11 dev seeds 1 (slope) and 4 (recipe), each drawn clean and with its defects."""
    from documents.engines.browser import Browser

    out = tmp_path_factory.mktemp("fresh11")
    with Browser() as browser:
        return [tester_set.make_doc(fresh11_pages.SET, s, "dev", out, browser) for s in (1, 4)]


def _ink(image: Image.Image, box) -> float:
    """The spread of grey levels inside ``box``: text on a flat fill spreads them, an empty box does not."""
    x0, y0, x1, y1 = box
    return float(np.asarray(image.convert("L"))[y0:y1, x0:x1].std())


@needs_chromium
def test_a_seed_draws_truth_on_ink_and_consistent_questions(docs):
    assert [(d.kind, d.engine) for d in docs] == [("slope", "matplotlib"), ("recipe", "chromium")]
    for doc in docs:
        clean = Image.open(doc.pages["clean"].image_path)
        assert clean.size == tuple(doc.size)
        by_id = {e.id: e for e in doc.pages["clean"].elements}
        assert len(by_id) >= 7, doc.id
        for e in by_id.values():
            x0, y0, x1, y1 = e.box
            assert 0 <= x0 < x1 <= doc.size[0] and 0 <= y0 < y1 <= doc.size[1], (doc.id, e.id, e.box)
            assert _ink(clean, e.box) > 15, (doc.id, e.id, e.text)
        shown = {e.id: e.text for e in doc.pages["defect"].elements}
        assert 2 <= len(doc.defects) <= 3
        for d in doc.defects:
            assert by_id[d.element].text == d.correct
            assert shown.get(d.element, "") == d.shown != d.correct
        assert len(doc.questions) >= 6
        for q in doc.questions:
            assert q.element in by_id and f'"{q.asked}"' in q.question, (doc.id, q.question)
            if q.truth_kind == "exact":
                assert q.asked == by_id[q.element].text and q.answers == {"clean": "yes", "defect": "yes"}
            elif q.truth_kind in ("wrong_element", "near_miss"):
                assert q.asked != by_id[q.element].text and q.answers == {"clean": "no", "defect": "no"}
            else:
                assert q.answers == {"clean": "yes", "defect": "no"}


@needs_chromium
def test_a_defect_changes_only_its_element(docs, tmp_path):
    """Redrawing the recipe card with one ingredient misspelt changes no pixel outside that line."""
    from documents.engines.browser import Browser

    with Browser() as browser:
        start, boxes = draw("recipe", 4, tmp_path / "a.png", browser=browser)
        out, _ = draw("recipe", 4, tmp_path / "b.png", {"ing-2": "Salt and blak pepper"}, browser)
    assert changed_outside(out, start, boxes["ing-2"], pad=3) == 0
    assert changed_outside(out, start, (0, 0, 0, 0)) > 0
