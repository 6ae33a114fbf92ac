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


def damaged(start: Image.Image, best: Image.Image, actions: list[dict]) -> dict:
    """The damage of a run: pixels where ``best`` differs from ``start`` that are glyphs of
    neither the words the ``actions`` (their records, see ``TextEditor.last_actions``) erased
    nor the rows they wrote (``refine.editors.text.audit.damage_mask``, the same measure each
    action's ``damaged_px`` takes of its own edit).

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
    mask = damage_mask(np.asarray(start.convert("RGB")), np.asarray(best.convert("RGB")), erased, inked)
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
