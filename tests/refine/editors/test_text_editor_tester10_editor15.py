"""The tenth tester's pages (``benchmarks/fresh10_pages.py``; issue 32, editor15): missing strings the
editor skipped and rewrites it set off their element's edge on dev pages, by class, each on the real
page the set's templates draw."""

import shutil

import numpy as np
import pytest
from editor_helpers import failed
from fresh10_drawn import changed_outside, draw

from refine.editors.text import TextEditor

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")


def inside(box, outer) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


@needs_tesseract
@pytest.mark.parametrize(("seed", "eid", "text"), [(47, "leg-1", "Returns"), (38, "leg-0", "Visitors")])
def test_a_legend_entry_left_out_beside_its_handle_is_written_by_the_handle(tmp_path, seed, eid, text):
    # dev dual_axis-47 / -38: matplotlib keeps the row of a line series whose label is empty, its
    # "—■—" handle drawn and nothing right of it; the entry was skipped as "no slot"
    _, clean = draw("dual_axis", seed, tmp_path / "clean.png")
    start, _ = draw("dual_axis", seed, tmp_path / "start.png", {eid: ""})
    editor = TextEditor()
    out = editor.edit(start, "", failed(f'Does the legend include the label "{text}"?'), 0)
    (act,) = editor.last_actions
    assert act["action"].startswith("place (in the legend's empty row"), act
    assert inside(act["box"], clean[eid]), (act["box"], clean[eid])
    assert abs(act["box"][0] - clean[eid][0]) <= 1  # the entries' text edge
    assert changed_outside(out, start, clean[eid], pad=0) == 0


@needs_tesseract
def test_a_legend_entry_longer_than_its_closed_up_frame_is_skipped(tmp_path):
    # dev dual_axis-47 with "Orders shipped" left out: the frame closed up to "Returns", so the
    # label would run over its edge (matplotlib would have widened the frame): skipped, nothing drawn
    start, _ = draw("dual_axis", 47, tmp_path / "start.png", {"leg-0": ""})
    editor = TextEditor()
    out = editor.edit(start, "", failed('Does the legend include the label "Orders shipped"?'), 0)
    (act,) = editor.last_actions
    assert act["action"].startswith("skip: the legend's empty row has no clear room"), act
    assert changed_outside(out, start, (0, 0, 0, 0), pad=0) == 0


def ink_columns(img, box):
    """(first, last) columns of ``box`` holding ink (more than 60 off the box's median colour)."""
    crop = np.asarray(img).astype(int)[box[1] : box[3], box[0] - 4 : box[2] + 4]
    bg = np.median(crop.reshape(-1, 3), axis=0)
    cols = np.flatnonzero((np.sqrt(((crop - bg) ** 2).sum(2)) > 60).any(0))
    return box[0] - 4 + int(cols[0]), box[0] - 4 + int(cols[-1])


@needs_tesseract
def test_a_swapped_question_misread_without_its_space_keeps_its_left_edge(tmp_path, browser):
    # dev faq-95: OCR reads "How do I my reset password?" as "How do! my reset ..."; registered on
    # that read, the rewrite started 3 px right of the old left edge, where Chromium starts the line
    from rewards.judges.ocr import OCRJudge

    clean, _ = draw("faq", 95, tmp_path / "clean.png", browser=browser)
    start, boxes = draw("faq", 95, tmp_path / "start.png", {"q-2": "How do I my reset password?"}, browser)
    ((check, _),) = failed('Is there a section heading that reads exactly "How do I reset my password?"?')
    verdict = OCRJudge().judge([start], [""], [[check]])[0][0]
    editor = TextEditor()
    out = editor.edit(start, "", [(check, verdict)], 0)
    (act,) = editor.last_actions
    assert act["action"] == "replace", act
    assert ink_columns(out, boxes["q-2"])[0] == ink_columns(clean, boxes["q-2"])[0]
    assert changed_outside(out, start, boxes["q-2"], pad=0) == 0
