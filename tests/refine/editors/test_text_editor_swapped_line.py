"""Text editor (issue 17): a list item with two words swapped is rewritten in place when it reads
as a whole OCR line, even where it looks like a line of a paragraph (``near_match._swapped_line``).

Adversarial dev seed 55 (``documents.adversarial``): a poster's agenda list whose first item is
missing (its bullet drawn empty) and whose fourth reads "grew Revenue faster than planned". The
list's items stand a line's pitch apart, so the swapped item was no lone line, and with the empty
first item the check's "fourth bullet" names no item code finds: the editor took the string for
missing and skipped it ("the page offers no slot")."""

import shutil

import numpy as np
import pytest
from editor_helpers import failed

from documents.adversarial import make_document
from refine.editors.text import TextEditor

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")


def test_swapped_list_item_in_a_tight_list_is_rewritten_where_it_stands():
    doc = make_document(55)
    err = next(e for e in doc.errors if e.kind == "swapped")
    box = next(e.box for e in doc.elements if e.id == err.element)
    assert (err.shown, err.correct) == ("grew Revenue faster than planned", "Revenue grew faster than planned")
    editor = TextEditor()
    start = np.asarray(doc.erroneous.convert("RGB"))
    out = np.asarray(editor.edit(doc.erroneous, "", failed(f'Does the fourth bullet read exactly "{err.correct}"?'), 0))
    action = editor.last_actions[0]
    assert action["action"] == "replace", action
    assert action["was"] == err.shown
    changed = (out != start).any(2)
    x0, y0, x1, y1 = box
    assert changed[y0:y1, x0:x1].sum() > 300  # rewritten there
    changed[y0 - 3 : y1 + 3, x0 - 3 : x1 + 3] = False  # the erase pads the old words' boxes
    assert changed.sum() == 0, np.argwhere(changed)[:5].tolist()


def test_a_paragraph_line_with_other_words_is_not_a_swapped_version():
    """The rule takes whole lines only: the same words inside a longer line are running text."""
    from refine.editors.text.near_match import _swapped_line
    from rewards.text.ocr.text_match import Line, Match, Word

    words = [Word(t, (10 * i, 0, 10 * i + 8, 10)) for i, t in enumerate("and grew Revenue faster than planned".split())]
    lines = [Line(tuple(words))]

    def match(text, ids):
        return Match(text=text, box=(0, 0, 58, 10), similarity=0.6, found=False, words=tuple((0, i) for i in ids))

    part = match("grew Revenue faster than planned", range(1, 6))
    whole = match("and grew Revenue faster than planned", range(6))
    target = "revenue grew faster than planned"
    assert not _swapped_line(part, "grew revenue faster than planned", target, lines)  # inside a longer line
    assert not _swapped_line(whole, "and grew revenue faster than planned", target, lines)  # another word in it
    alone = [Line(tuple(words[1:]))]
    part_alone = match("grew Revenue faster than planned", range(5))
    assert _swapped_line(part_alone, "grew revenue faster than planned", target, alone)


def test_swapped_footer_whose_first_word_ocr_dropped_is_rewritten_whole():
    """Adversarial dev seed 51: the footer "at More www.springfestival.org" (its first two words
    swapped) is read "More wwwspringfestival.org", its small "at" unread. Before: the rewrite of
    those words left the "at" standing ("at More at www..."). Now the unread word before the line
    is taken into the block (``unread_mark``): the footer reads as the clean page draws it."""
    doc = make_document(51)
    err = next(e for e in doc.errors if e.kind == "swapped")
    assert (err.element, err.shown) == ("footer", "at More www.springfestival.org")
    x0, y0, x1, y1 = next(e.box for e in doc.elements if e.id == "footer")
    editor = TextEditor()
    out = editor.edit(doc.erroneous, "", failed(f"Does the footer source note read exactly '{err.correct}'?"), 0)
    assert editor.last_actions[0]["action"] == "replace", editor.last_actions
    got = np.asarray(out.convert("RGB")).astype(int)
    clean = np.asarray(doc.clean.convert("RGB")).astype(int)
    start = np.asarray(doc.erroneous.convert("RGB")).astype(int)
    # the "at" before "More" is gone: the row's ink starts where the clean page's does
    bg = np.median(start[y0:y1, x0:x1], axis=(0, 1))
    first = lambda a: int(np.argmax((np.abs(a[y0:y1, x0 - 4 : x1] - bg).max(2) > 40).any(0)))  # noqa: E731
    assert abs(first(got) - first(clean)) <= 1
    assert np.abs(got[y0:y1, x0:x1] - clean[y0:y1, x0:x1]).max(2).__gt__(60).mean() < 0.02  # as drawn clean
    changed = (got != start).any(2)
    changed[y0 - 3 : y1 + 3, x0 - 3 : x1 + 3] = False
    assert changed.sum() == 0


def test_a_bullet_dot_is_not_taken_for_a_dropped_word():
    """The list's bullet before "Fresh coffee served all day long" (adversarial dev seed 55) is
    as wide as an "I": a solid dot, it is never the string's unread word."""
    from documents.fonts import installed_faces
    from refine.editors.text.layout import Block
    from refine.editors.text.type_match import TypeStyle
    from refine.editors.text.unread_mark import with_unread_mark

    arr = np.asarray(make_document(55).erroneous.convert("RGB"))
    serif = {(f.family, f.bold, f.italic): f for f in installed_faces()}[("DejaVu Serif", False, False)]
    ink, bg = (31, 41, 75), tuple(int(v) for v in arr[395, 40])
    style = TypeStyle(serif, 17.0, 384.0, 71.0, ink, 0.95)
    line = ("Fresh coffee served all day long",)
    blk = Block([(71, 371, 344, 388)], style, bg, "left", 71.0, 273.0, 21.0, 384.0, 0.0, line)
    assert with_unread_mark(arr, blk, "I Fresh coffee served all day long") is blk
    assert with_unread_mark(arr, blk, "Fresh coffee served all day long") is blk  # nothing unread
