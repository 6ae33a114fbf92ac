"""What the editor checks about its own edits, and the record it keeps of each.

Before writing a string: is it inside text this edit just wrote, or did the previous edit write
it (the loop handed back the image that edit returned, and the judge's OCR may not read small
light text on a badge)? After writing: which pixels changed, what share of the image lies
outside the boxes the action reports (0.0 by construction, measured), and which changed pixels
are damage: neither glyphs of the words the string replaced nor glyphs of the string written
(``damage_mask``). An erase box is padded and grown over touching ink, so it can swallow a
bullet dot, a border under a title or a legend swatch; the boxes alone never showed that (issue
17). Figures of a whole refine run, measured with an independent reader, are in
``refine.edit_audit``.
"""

from __future__ import annotations

import hashlib

import numpy as np
from rapidfuzz.distance import Levenshtein
from scipy import ndimage

from refine.editors.text.erase import TOLERANCE, background_model
from refine.editors.text.outcomes import Box, Skip, Written
from refine.editors.text.state import EditState
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, contains, in_region, normalize

GLYPH_MARGIN = 2
"""Pixels around an OCR word box, or a written row's ink box, whose ink still counts as its glyphs
(an OCR box is often a pixel off the ink)."""
MAX_DAMAGE_BOXES = 8
"""Most damage boxes an action record (or a run's summary) lists, largest first."""


def digest(arr: np.ndarray) -> str:
    """SHA-1 of an image's pixels and shape (is this the image the last edit returned?)."""
    return hashlib.sha1(arr.tobytes() + str(arr.shape).encode()).hexdigest()


def already_written(exp: TextExpectation, state: EditState, previous: dict, case_sensitive: bool) -> Skip | None:
    """A Skip when ``exp``'s string is inside a string this edit wrote, or the previous edit
    wrote it in its place (``previous``: normalized text -> main box, from the image it
    returned); else None."""
    if any(contains(t, exp.text, case_sensitive) for t in state.written):
        return Skip("skip: inside text just written")
    mine = previous.get(normalize(exp.text, case_sensitive))
    if mine is not None and in_region(mine, exp.region, state.w, state.h):
        return Skip("skip: already on the page (written by the previous edit; the judge does not read it)", mine)
    return None


def glyph_mask(arr: np.ndarray, boxes, margin: int = GLYPH_MARGIN) -> np.ndarray:
    """bool (H, W): the glyph pixels of ``arr`` (uint8 (H, W, 3)) in ``boxes`` (x0, y0, x1, y1,
    pixels, each grown by ``margin``): those more than ``erase.TOLERANCE`` off the box's
    modelled background (``erase.background_model``, the model the erase uses), grown by one
    pixel (their anti-aliased fringe, which the erase replaces too)."""
    h, w = arr.shape[:2]
    ink = np.zeros((h, w), bool)
    for b in boxes:
        x0, y0, x1, y1 = max(0, b[0] - margin), max(0, b[1] - margin), min(w, b[2] + margin), min(h, b[3] + margin)
        if x1 <= x0 or y1 <= y0:
            continue
        model = background_model(arr, (x0, y0, x1, y1))
        if model is None:  # the box covers the image: all of it counts as glyphs
            ink[y0:y1, x0:x1] = True
            continue
        # dilated within the box and a one-pixel border (not over the whole image, once per box)
        X0, Y0, X1, Y1 = max(0, x0 - 1), max(0, y0 - 1), min(w, x1 + 1), min(h, y1 + 1)
        glyphs = np.zeros((Y1 - Y0, X1 - X0), bool)
        glyphs[y0 - Y0 : y1 - Y0, x0 - X0 : x1 - X0] = (
            np.abs(arr[y0:y1, x0:x1].astype(np.float32) - model).max(2) > TOLERANCE
        )
        ink[Y0:Y1, X0:X1] |= ndimage.binary_dilation(glyphs, np.ones((3, 3), bool))
    return ink


def damage_mask(before: np.ndarray, after: np.ndarray, erased, inked) -> np.ndarray:
    """bool (H, W): pixels that differ between ``before`` and ``after`` (uint8 (H, W, 3), any
    channel) and are neither glyphs of the old words in ``erased`` (in ``before``) nor glyphs of
    the rows written in ``inked`` (in ``after``), see ``glyph_mask``: the graphics an edit
    touched (bullets, borders, swatches, icons, lines). Raises ValueError when the sizes differ."""
    if before.shape != after.shape:
        raise ValueError(f"image sizes differ: before {before.shape[:2]}, after {after.shape[:2]}")
    changed = (before != after).any(2)
    if not changed.any():
        return changed
    return changed & ~glyph_mask(before, erased) & ~glyph_mask(after, inked)


def damage_boxes(mask: np.ndarray, limit: int = MAX_DAMAGE_BOXES) -> list[list[int]]:
    """Boxes [x0, y0, x1, y1] (end-exclusive, pixels) of the connected parts (8-neighbours) of
    ``mask``, most pixels first, at most ``limit``."""
    labels, n = ndimage.label(mask, np.ones((3, 3), bool))
    if not n:
        return []
    sizes = np.bincount(labels.ravel())[1:]
    slices = ndimage.find_objects(labels)
    order = sorted(range(n), key=lambda i: -sizes[i])[:limit]
    return [[slices[i][1].start, slices[i][0].start, slices[i][1].stop, slices[i][0].stop] for i in order]


def string_words(words: list[tuple[str, Box]], text: str) -> list[Box]:
    """The boxes of the OCR ``words`` (text, box; in reading order) that stand for ``text``: all
    but the leading and trailing words that align with no character of it (Levenshtein
    alignment, case ignored) and are no word of it (the swapped "at" of "at More www..."
    stands). A near match snapped to whole words can take in a bullet dot OCR read as "e", or a
    neighbouring label: erasing those is damage, not a rewrite. A word deleted inside the
    string ("grew grew") stays one of its words."""
    if not words:
        return []
    spans, pos = [], 0
    for t, _ in words:
        spans.append((pos, pos + len(t)))
        pos += len(t) + 1
    joined = " ".join(t for t, _ in words).lower()
    kept = np.zeros(len(joined) + 1, bool)
    for op in Levenshtein.opcodes(joined, " ".join(text.split()).lower()):
        if op.tag in ("equal", "replace"):
            kept[op.src_start : op.src_end] = True
    # a word of the string stands for it wherever it is: the "at" of "at More www..." for "More
    # at www..." aligns with no character (Levenshtein deletes it and inserts it later)
    want = [w.strip(".,;:!?").casefold() for w in text.split()]
    stands = []
    for (t, _), (a, b) in zip(words, spans):
        own = t.strip(".,;:!?").casefold()
        stands.append(bool(kept[a:b].any()) or own in want)
        if own in want:
            want.remove(own)
    if not any(stands):
        return [box for _, box in words]
    first, last = stands.index(True), len(stands) - 1 - stands[::-1].index(True)
    return [box for _, box in words[first : last + 1]]


def moved_px(erased, inked, align: str) -> int:
    """How far (pixels) the rows written start from where the words they replace stood, along
    their alignment ("left": left edges, "right": right edges, else centres), over the union
    of each; 0 without both."""
    if not erased or not inked:
        return 0
    old = (min(b[0] for b in erased), max(b[2] for b in erased))
    new = (min(b[0] for b in inked), max(b[2] for b in inked))
    if align == "left":
        return int(abs(new[0] - old[0]))
    if align == "right":
        return int(abs(new[1] - old[1]))
    return int(round(abs((new[0] + new[1]) / 2 - (old[0] + old[1]) / 2)))


def _record(exp, check_id, action, box=None, was="", boxes=(), info=None, before=None, after=None) -> dict:
    """One ``TextEditor.last_actions`` entry (see its docstring); ``before``/``after`` (uint8
    (H, W, 3)) give ``changed_px`` and ``outside_share`` when text was written."""
    rec = {
        "text": exp.text if len(exp.text) <= 200 else exp.text[:200] + "...",
        "check": check_id,
        "action": action,
        "box": [int(v) for v in box] if box is not None else None,
        "was": was,
        "boxes": [[int(v) for v in b] for b in boxes],
    }
    if before is not None:
        changed = (before != after).any(2)
        inside = np.zeros(changed.shape, bool)
        for x0, y0, x1, y1 in rec["boxes"]:
            inside[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = True
        rec["changed_px"] = int(changed.sum())
        rec["outside_share"] = float((changed & ~inside).sum() / changed.size)
    if info is not None:
        rec["type"] = info
    return rec


def skip_record(exp: TextExpectation, check_id: str, skip: Skip) -> dict:
    """The action record of a string left alone (``skip.reason``, with its box and OCR text)."""
    return _record(exp, check_id, skip.reason, skip.box, skip.was)


def written_record(
    exp: TextExpectation,
    check_id: str,
    written: Written,
    before: np.ndarray,
    after: np.ndarray,
    read: list[Line] | None = None,
) -> dict:
    """The action record of a string written: ``written``'s action, boxes and type, the pixels
    that changed from ``before`` to ``after`` (uint8 (H, W, 3)), and what the damage audit
    measured:

    - ``erased``: boxes of the OCR words replaced that stand for the string (``string_words``;
      ``read``: the lines ``written.words`` index, those of the rewrite's match; without them, the
      main box); [] for a placed string.
    - ``inked``: ink boxes of the rows written.
    - ``damaged_px``, ``damage_boxes``: pixels changed that are glyphs of neither
      (``damage_mask``), and the boxes of their connected parts (``damage_boxes``).
    - ``moved_px`` (rewrites): how far the new rows start from the words they replace
      (``moved_px``).
    """
    rec = _record(exp, check_id, written.action, written.box, written.was, written.boxes, written.info, before, after)
    if written.words:
        if read is not None:
            words = [(read[li].words[wi].text, read[li].words[wi].box) for li, wi in written.words]
            erased = string_words(words, exp.text)
        else:
            erased = [written.box]
        inked = list(dict.fromkeys(tuple(wd.box) for ln in written.lines for wd in ln.words)) or written.boxes
    else:  # placed: nothing erased but an old value it replaced, every other box is ink
        erased, inked = list(written.erased), [b for b in written.boxes if tuple(b) not in written.erased]
    damage = damage_mask(before, after, erased, inked)
    rec["erased"] = [[int(v) for v in b] for b in erased]
    rec["inked"] = [[int(v) for v in b] for b in inked]
    rec["damaged_px"] = int(damage.sum())
    rec["damage_boxes"] = damage_boxes(damage)
    if written.words:
        rec["moved_px"] = moved_px(erased, inked, written.info.get("align", "left"))
    return rec
