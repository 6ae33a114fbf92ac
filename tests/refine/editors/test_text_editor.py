"""Text editor on rendered documents: colours, in-place fixes, placement, fix rate on the example."""

import shutil
from pathlib import Path

import numpy as np
import pytest
from pages import page

from refine.editors.text import TextEditor, two_means_colours
from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check, TextExpectation

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
EXAMPLE = Path(__file__).resolve().parents[3] / "refine" / "example"


def failing(judge, img, checks):
    verdicts = judge.judge([img], [""], [checks])[0]
    return [(c, v) for c, v in zip(checks, verdicts) if v.answer == "no"]


def test_two_means_light_on_dark():
    # 30% white glyph pixels on navy: min/max would call navy the "text"; two-means must not.
    navy, white = np.array([25, 40, 90], np.uint8), np.array([250, 250, 250], np.uint8)
    pixels = np.vstack([np.tile(navy, (70, 1)), np.tile(white, (30, 1))])
    ink, bg = two_means_colours(pixels, np.tile(navy, (40, 1)))
    assert ink == (250, 250, 250) and bg == (25, 40, 90)
    ink, bg = two_means_colours(255 - pixels, np.tile(255 - navy, (40, 1)))
    assert ink == (5, 5, 5) and bg == (230, 215, 165)


def test_replace_light_on_dark_and_keep_correct_text():
    img = page(
        [
            ("Market Outlok 2025", (30, 22), 30, (250, 250, 250)),
            ("Female", (40, 200), 24, (20, 20, 20)),
            ("Revenue by region", (40, 280), 24, (20, 20, 20)),
        ],
        band=(0, 80, (25, 40, 90)),
    )
    judge, editor = OCRJudge(), TextEditor()
    checks = [
        Check("1", "q", expects=(TextExpectation("Market Outlook 2025", "top"),)),
        Check("2", "q", expects=(TextExpectation("Male"),)),
        Check("3", "q", expects=(TextExpectation("Revenue by region"),)),
        Check("4", "Is the chart pleasing?"),
    ]
    fails = failing(judge, img, checks)
    assert [c.id for c, _ in fails] == ["1", "2"]
    out = editor.edit(img, "", fails, seed=0)
    # "Female" is not rewritten; "Male" names no place and has no slot on the page (issue 17: no
    # loose text), so it is skipped with the reason
    acts = [a["action"] for a in editor.last_actions]
    assert acts[0] == "replace" and acts[1].startswith("skip: missing, and the page offers no slot for it")
    assert [
        v.answer
        for v in judge.judge([out], [""], [checks[:3] + [Check("5", "q", expects=(TextExpectation("Female"),))]])[0]
    ] == ["yes", "no", "yes", "yes"]
    band = np.asarray(out)[:80].reshape(-1, 3).astype(int)
    assert np.median(band.sum(1)) < 200 and (band.sum(1) > 700).sum() > 500  # still light text on navy
    # Failures without expectations leave the image as it was.
    assert np.array_equal(np.asarray(editor.edit(img, "", [(checks[3], fails[0][1])], 0)), np.asarray(img))


def test_missing_string_placed_in_region_only_with_free_space():
    # A region is no slot: by default the editor writes no loose line there (issue 17); the old
    # free-space placement is an explicit option.
    img = page([("Quarterly results", (40, 30), 26, (0, 0, 0))])
    judge = OCRJudge()
    chk = Check("1", "q", expects=(TextExpectation("Call us today", "bottom"),))
    editor = TextEditor()
    out = editor.edit(img, "", failing(judge, img, [chk]), seed=0)
    skip = "skip: missing, and the page offers no slot for it (region bottom"
    assert editor.last_actions[0]["action"].startswith(skip)
    assert np.array_equal(np.asarray(out), np.asarray(img))
    editor = TextEditor(free_space=True)
    out = editor.edit(img, "", failing(judge, img, [chk]), seed=0)
    assert editor.last_actions[0]["action"] == "place" and editor.last_actions[0]["box"][1] >= 180
    assert judge.judge([out], [""], [[chk]])[0][0].answer == "yes"


def test_one_check_quoting_3000_strings_edits_only_the_first_200(caplog):
    """Issue 18: one check quoting 3000 strings kept the editor on one item for 406 s (ordering and
    placing compare every string with every other). One edit now works on the first max_strings
    (200) strings; each other string gets a "fail:" action and the edit logs one warning."""
    from refine.editors.text.work import collect_work
    from rewards.rubric import Verdict

    strings = [f"Item {k} cost {k * 7 % 1000}" for k in range(3000)]
    check = Check("many", "Does the menu list them?", expects=tuple(TextExpectation(s) for s in strings))
    failures = [(check, Verdict("many", "no", "ocr", "missing"))]
    work = collect_work(failures, max_chars=2000)
    assert [e.text for e, _ in work.strings] == strings[:200]
    assert [e.text for e, _, _ in work.refused] == strings[200:]
    assert work.sequences[check.expects[0]] == [(check.expects[:200], "all")]  # neighbours: the strings worked on

    img = page([("Item 1 cost 7", (40, 30), 26, (0, 0, 0))])
    editor = TextEditor(second_psm=None)
    with caplog.at_level("WARNING", logger="refine.editors.text.editor"):
        editor.edit(img, "", failures, seed=0)
    over = "fail: over max_strings=200 strings in one edit (the first 200 are edited)"
    acts = {a["text"]: a["action"] for a in editor.last_actions}
    assert [s for s in strings if acts.get(s) == over] == strings[200:]
    assert len([s for s in strings[:200] if s in acts and acts[s] != over]) == 199  # "Item 1 cost 7" is on the page
    assert [r.getMessage() for r in caplog.records] == [
        "text editor: the failed checks quote 3000 strings; the first 200 are edited, 2800 are not (max_strings=200)"
    ]
