"""Figures of a refine run's edits, measured without the judge.

Shared by ``benchmarks/text_editor.py`` (seeded documents) and ``scripts/verify_example.py``
(the bundled example), and by the refine loop's summary: how often an independent reader's lines
hold a string, which editor actions a run kept, how many pixels changed outside the boxes those
actions reported, and how many changed pixels are damage: glyphs of neither the words a rewrite
replaced nor the strings written (``damaged``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
from PIL import Image

from refine.editors.text.audit import damage_boxes, damage_mask
from rewards.text.ocr.text_match import Line, Word, boundary_ok, find_matches, next_lines, normalize

MAX_LINES = 12
"""Lines of one column an occurrence may span (a paragraph of the example wraps over 6)."""


def occurrences(text: str, lines: list[Line], ignore_spaces: bool = True, max_lines: int = MAX_LINES) -> int:
    """How many separate occurrences of ``text`` a reader's ``lines`` hold.

    Exact (``ignore_spaces=False``): the exact matches of :func:`rewards.text.ocr.text_match.find_matches`
    (the judge's "found" rules, any region, up to ``max_lines`` lines of a column joined by a space),
    one per distinct word set, after splitting each word at its spaces (RapidOCR returns a line as
    one word; "03 03" holds "03" twice).

    Spaces ignored (RapidOCR's English model drops the spaces of some lines: "Impactplansafety"):
    the exact count or, when higher, the count of this rule: for each line, the chain of up to
    ``max_lines`` lines that continue it in its column (``text_match.next_lines``) is joined
    without spaces; an occurrence starts inside the first line and must not start or end inside
    a word (text_match's boundary rule on the joined text, where a line end counts as a word
    end), so "03" is not counted in "2030" nor "Never" in "Neverr".
    """
    exact = sum(m.found for m in find_matches(text, [split_words(ln) for ln in lines], 1, 1, max_lines=max_lines))
    if not ignore_spaces:
        return exact
    target = normalize(text).replace(" ", "")
    if not target:
        return exact
    flat = [normalize(ln.text).replace(" ", "") for ln in lines]
    after = next_lines(lines)
    count = 0
    for i in range(len(lines)):
        chain, joined, ends = [i], flat[i], {len(flat[i])}
        while (
            len(joined) < len(flat[i]) + len(target)
            and len(chain) < max_lines
            and after[chain[-1]] not in (None, *chain)
        ):
            chain.append(after[chain[-1]])
            joined += flat[chain[-1]]
            ends.add(len(joined))
        k = joined.find(target)
        while 0 <= k < len(flat[i]):
            end = k + len(target)
            view = joined[:end] + " " + joined[end:] if end in ends else joined  # a line break ends a word
            count += boundary_ok(view, k, end)
            k = joined.find(target, k + 1)
    return max(exact, count)


def split_words(line: Line) -> Line:
    """``line`` with every word split at its spaces; a part's box spans its share of the word's
    width, in proportion to character positions (pixels)."""
    words = []
    for w in line.words:
        x0, y0, x1, y1 = w.box
        per_char = (x1 - x0) / max(1, len(w.text))
        for m in re.finditer(r"\S+", w.text):
            words.append(Word(m.group(), (round(x0 + m.start() * per_char), y0, round(x0 + m.end() * per_char), y1)))
    return Line(tuple(words)) if words else line


def kept_actions(run_dir: Path) -> list[dict]:
    """The editor actions of the iterations up to the best one of an item's refine output.

    Reads ``run_dir/result.json`` (``best_iteration``) and ``run_dir/instructions.jsonl`` (one
    record per edit: ``iteration``, ``editor_actions``). Raises FileNotFoundError when either is
    missing and ValueError naming the file and line of a record that is not JSON.
    """
    best = json.loads((run_dir / "result.json").read_text(encoding="utf-8"))["best_iteration"]
    actions = []
    path = run_dir / "instructions.jsonl"
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}:{n}: not a JSON record ({e})") from None
        if record["iteration"] <= best:
            actions.extend(record.get("editor_actions", []))
    return actions


def changed_outside(start: Image.Image, best: Image.Image, actions: list[dict]) -> int:
    """Pixels where ``best`` differs from ``start`` (any RGB channel) outside the union of the
    ``boxes`` (x0, y0, x1, y1, end-exclusive, pixels) the ``actions`` report. Raises ValueError
    when the two images differ in size."""
    if start.size != best.size:
        raise ValueError(f"image sizes differ: start {start.size}, best {best.size}")
    changed = (np.asarray(best.convert("RGB")) != np.asarray(start.convert("RGB"))).any(2)  # (H, W) bool
    inside = np.zeros(changed.shape, bool)
    for a in actions:
        for x0, y0, x1, y1 in a.get("boxes", []):
            inside[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = True
    return int((changed & ~inside).sum())


def _box_mask(shape: tuple[int, int], boxes) -> np.ndarray:
    """bool (H, W): True inside any box (x0, y0, x1, y1, end-exclusive, pixels)."""
    m = np.zeros(shape, bool)
    for x0, y0, x1, y1 in boxes:
        m[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = True
    return m


def spill_mask(start: np.ndarray, best: np.ndarray, actions: list[dict]) -> np.ndarray:
    """bool (H, W): pixels changed from ``start`` to ``best`` (uint8 (H, W, 3)) outside the boxes
    of the strings the ``actions`` meant to touch: a rewrite's old words (``erased``) and a placed
    string's own rows (``inked`` of an action that erased nothing). A rewrite's new ink may run
    past its old words along their line (the rows its erased boxes span) onto pixels that were
    empty page (within 40 of the page background, the median of the border, per channel), and
    inside its own new rows (``inked``) onto pixels that were empty page or the fill its old
    words stood on (within 40 of the median of a 2-pixel ring around them), at most half a line
    above or below the old words: a longer right string
    grows its element as the engine would draw it, along its band or button ("FEE" -> "FREE" on a
    dark band) and with the descenders of its new letters ("our" -> "your"). Anything else it
    changes there (ink over the axis, the tick labels under a rotated title, a line above or
    below) is spill."""
    h, w = start.shape[:2]
    changed = (start != best).any(2)
    own = []
    for a in actions:
        erased = a.get("erased", a.get("boxes", []))
        own += erased if erased else a.get("inked", a.get("boxes", []))
    spill = changed & ~_box_mask((h, w), own)
    if not spill.any():
        return spill
    border = np.concatenate([start[0], start[-1], start[:, 0], start[:, -1]]).astype(np.int16)
    empty = np.abs(start.astype(np.int16) - np.median(border, 0)[None, None]).max(2) <= 40
    for a in actions:
        erased = a.get("erased", [])
        if erased:
            y0, y1 = min(b[1] for b in erased), max(b[3] for b in erased)
            spill[max(0, y0) : max(0, y1)] &= ~empty[max(0, y0) : max(0, y1)]
            fill = _fill_around(start, erased)
            blank = empty | (np.abs(start.astype(np.int16) - fill[None, None]).max(2) <= 40)
            grown = _box_mask((h, w), a.get("inked", [])) & blank
            reach = max(2, max(b[3] - b[1] for b in erased) // 2)  # a descender or an accent, not another line
            grown[: max(0, y0 - reach)] = grown[y1 + reach :] = False
            spill &= ~grown
    return spill


def _fill_around(start: np.ndarray, boxes) -> np.ndarray:
    """int16 (3,): the median colour of the 2-pixel ring around the union of ``boxes`` in
    ``start`` (uint8 (H, W, 3)): the fill the words in them stand on."""
    h, w = start.shape[:2]
    x0, y0 = max(0, min(b[0] for b in boxes) - 2), max(0, min(b[1] for b in boxes) - 2)
    x1, y1 = min(w, max(b[2] for b in boxes) + 2), min(h, max(b[3] for b in boxes) + 2)
    ring = np.ones((y1 - y0, x1 - x0), bool)
    ring[2:-2, 2:-2] = False
    return np.median(start[y0:y1, x0:x1][ring].astype(np.int16), 0)


def damaged(start: Image.Image, best: Image.Image, actions: list[dict]) -> dict:
    """The damage of a run, what a person sees: pixels where ``best`` differs from ``start`` that
    are glyphs of neither the words the ``actions`` (their records, see
    ``TextEditor.last_actions``) erased nor the rows they wrote (``damage_mask``: borders,
    bullets, swatches an edit touched), and every pixel changed outside the boxes of the strings
    the actions meant to touch (``spill_mask``: a rewrite whose new rows spill over a neighbour,
    a rotated title rewritten flat over the tick labels).

    An action's ``erased`` and ``inked`` boxes say which is which; a record without them (another
    editor's, or an older log) counts the ink in each of its ``boxes``, before and after, as the
    strings', so (about as ``changed_outside``) only changes outside them count.

    Returns {"damaged_px": int, "damage_boxes": [[x0, y0, x1, y1], ...] (the largest connected
    parts, end-exclusive pixels)}. Raises ValueError when the images differ in size.
    """
    if start.size != best.size:
        raise ValueError(f"image sizes differ: start {start.size}, best {best.size}")
    erased, inked = [], []
    for a in actions:
        if "inked" in a:
            erased += a.get("erased", [])
            inked += a["inked"]
        else:
            erased += a.get("boxes", [])
            inked += a.get("boxes", [])
    before, after = np.asarray(start.convert("RGB")), np.asarray(best.convert("RGB"))
    mask = damage_mask(before, after, erased, inked) | spill_mask(before, after, actions)
    return {"damaged_px": int(mask.sum()), "damage_boxes": damage_boxes(mask)}


def action_per_string(actions: list[dict]) -> dict[str, dict]:
    """For each expected string (an action's ``text``) the action that decided it: its last
    replace, else its first action."""
    last: dict[str, dict] = {}
    for a in actions:
        last.setdefault(a["text"], a)
        if a["action"].startswith("replace"):
            last[a["text"]] = a
    return last
