"""The tenth tester's pages (``benchmarks/fresh10_pages.py``; issue 32, editor15): missing strings the
editor skipped and rewrites it set off their element's edge on dev pages, by class, each on the real
page the set's templates draw."""

import shutil

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
