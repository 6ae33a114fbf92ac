"""What the editor checks about its own edits, and the record it keeps of each.

Before writing a string: is it inside text this edit just wrote, or did the previous edit write
it (the loop handed back the image that edit returned, and the judge's OCR may not read small
light text on a badge)? After writing: which pixels changed, and what share of the image lies
outside the boxes the action reports (0.0 by construction, measured). Figures of a whole refine
run, measured with an independent reader, are in ``refine.edit_audit``.
"""

from __future__ import annotations

import hashlib

import numpy as np

from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.state import EditState
from rewards.rubric import TextExpectation
from rewards.text.text_match import contains, in_region, normalize


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
    exp: TextExpectation, check_id: str, written: Written, before: np.ndarray, after: np.ndarray
) -> dict:
    """The action record of a string written: ``written``'s action, boxes and type, and the
    pixels that changed from ``before`` to ``after`` (uint8 (H, W, 3))."""
    return _record(exp, check_id, written.action, written.box, written.was, written.boxes, written.info, before, after)
