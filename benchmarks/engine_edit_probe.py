"""Probe: the text editor's pixels outside an element, one element at a time, on engine pages.

Usage::

    python benchmarks/engine_edit_probe.py --engine chromium --seeds 24-41 --per 4 --out runs/probe_c
    python benchmarks/engine_edit_probe.py --engine matplotlib --seeds 24-33 --kinds missing --roles axis_title
    python benchmarks/engine_edit_probe.py --engine matplotlib --seeds 24-45 --kinds missing --roles axis_title \
        --tick-typo --per 1

``benchmarks/engine_refine.py`` measures a few defects per document; a class of damage that one
column of one glyph causes shows on one report page and on none of the dev pages it holds. This
probe draws many more: for each dev seed (never a report one, 1000 and up) it draws the engine's
page (``documents.engines``: matplotlib or Chromium), then, for up to ``--per`` of its askable
elements, the same page with that element's string corrupted by the first of ``--kinds`` that
changes it (``documents.engines.model.CORRUPT``: typo, digit, swap, drop_word; ``missing`` leaves
it out), asks the editor to fix it (the rubric question ``documents.engines.questions.phrase``
words for it, failed), and counts the pixels that changed outside the element's engine boxes on
both pages, less the element's own ink within 1 px of them, as ``engine_refine`` counts damage
(``mask_of``, ``own_ink``, ``owned_box``), the elements the engine moved when it left one
out (a list's later items) owning their boxes on both pages, as ``engine_refine`` counts its
moved elements. ``--tick-typo``: one tick label of an axis title's axis is misspelled too, asked
in the same edit (the title's type is fitted on the tick labels, one of which the edit rewrote).
One JSON line per element; with ``--out``, the start,
edited and clean pages of every element that damaged a pixel.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.engine_refine import mask_of, own_ink, owned_box  # noqa: E402
from documents.engines.charts import chart_content, draw_chart  # noqa: E402
from documents.engines.model import CORRUPT  # noqa: E402
from documents.engines.pages import draw_page, page_content  # noqa: E402
from documents.engines.questions import phrase  # noqa: E402
from documents.engines.split import ASKABLE, ENGINE_OFFSET, KINDS  # noqa: E402
from refine.editors.text import TextEditor  # noqa: E402
from rewards.importers import expectations_of  # noqa: E402
from rewards.rubric import Check, Verdict  # noqa: E402
from rewards.text.questions.question_compiler import compile_question  # noqa: E402


def seeds_of(text: str) -> list[int]:
    """ "24-29" or "24,30,36" as seeds; raises ValueError for a report seed (1000 and up)."""
    if "-" in text:
        lo, hi = (int(v) for v in text.split("-"))
        seeds = list(range(lo, hi + 1))
    else:
        seeds = [int(v) for v in text.split(",")]
    if any(s >= 1000 for s in seeds):
        raise ValueError("report seeds (1000 and up) are not probed: nobody tunes on report")
    return seeds


def corrupted(text: str, kinds: list[str], rng: random.Random, others: set[str]) -> tuple[str, str] | None:
    """(kind, shown) of the first of ``kinds`` that changes ``text`` into no other element's string
    ("" for ``missing``); None when none does."""
    for kind in kinds:
        if kind == "missing":
            return kind, ""
        shown = CORRUPT[kind](text, rng)
        if shown and shown != text and shown not in others:
            return kind, shown
    return None


def tick_typo(spec, specs, rng: random.Random):
    """(tick label spec, its misspelling) of one tick label on the axis of the axis title
    ``spec`` (``--tick-typo``), the first in ``rng``'s order that a typo changes; None for
    another role or when none does."""
    if spec.role != "axis_title":
        return None
    ticks = [s for s in specs if s.role == "tick_label" and s.context.get("axis") == spec.context.get("axis")]
    rng.shuffle(ticks)
    others = {s.text for s in specs}
    for t in ticks:
        shown = CORRUPT["typo"](t.text, rng)
        if shown and shown != t.text and shown not in others:
            return t, shown
    return None


def failed(cid: str, question: str) -> tuple[Check, Verdict]:
    """``question`` compiled as check ``cid`` with a failing OCR verdict."""
    spec_q = compile_question(question)
    return Check(cid, question, expects=expectations_of(spec_q), spec=spec_q), Verdict(cid, "no", "ocr", "")


def damage(start: np.ndarray, best: np.ndarray, clean: np.ndarray, boxes) -> np.ndarray:
    """bool (H, W): pixels changed from ``start`` to ``best`` outside ``boxes`` and their own ink
    (``engine_refine.own_ink`` on the clean and the start page)."""
    changed = (start != best).any(2)
    return changed & ~mask_of(changed.shape, boxes) & ~own_ink([clean, start], boxes)


def likeness(best: np.ndarray, clean: np.ndarray, box) -> dict | None:
    """How close a written string is to the engine's own: in ``box`` (the clean page's element box)
    grown by 2 px, ``diff`` the summed absolute difference of the edited and the clean page (px of
    full contrast, largest channel) and ``ends`` the edited ink's first and last columns less the
    clean ink's (pixels more than 8 off the box's corner colour); None when either has no ink."""
    x0, y0, x1, y1 = max(0, box[0] - 2), max(0, box[1] - 2), box[2] + 2, box[3] + 2
    b, c = best[y0:y1, x0:x1].astype(np.int16), clean[y0:y1, x0:x1].astype(np.int16)
    spans = []
    for im in (b, c):
        cols = np.nonzero((np.abs(im - im[0, 0]).max(2) > 8).any(0))[0]
        if not len(cols):
            return None
        spans.append((int(cols[0]), int(cols[-1])))
    diff = float(np.abs(b - c).max(2).sum()) / 255
    return {"diff": round(diff, 1), "ends": [spans[0][0] - spans[1][0], spans[0][1] - spans[1][1]]}


def probe_page(engine: str, seed: int, args, draw, out: Path | None) -> list[dict]:
    """The probe's rows for one page (module docstring)."""
    kind = KINDS[engine][seed % len(KINDS[engine])]
    content = chart_content if engine == "matplotlib" else page_content
    specs, style = content(kind, random.Random(seed + ENGINE_OFFSET[engine]))
    clean_img, clean_els = draw(kind, specs, style)
    clean_by = {e.id: e for e in clean_els}
    rng = random.Random(seed)
    roles = set(args.roles.split(",")) if args.roles else ASKABLE[engine]
    todo = [s for s in specs if s.role in roles and s.role in ASKABLE[engine] and s.id in clean_by]
    rng.shuffle(todo)
    rows = []
    for spec in todo:
        if len(rows) >= args.per:
            break
        bad = corrupted(spec.text, args.kinds.split(","), rng, {s.text for s in specs})
        asked = phrase(clean_by[spec.id], spec.text, kind, rng)
        if bad is None or asked is None:
            continue
        dkind, shown = bad
        also = tick_typo(spec, specs, rng) if args.tick_typo else None  # (its spec, shown) or None
        wrong = {spec.id: shown} | ({also[0].id: also[1]} if also else {})
        variant = [replace(s, text=wrong[s.id]) if s.id in wrong else s for s in specs if s.id != spec.id or shown]
        try:
            start_img, defect_els = draw(kind, variant, style)
        except ValueError:  # the engine did not draw the corrupted string as it is
            continue
        defect = next((e for e in defect_els if e.id == spec.id), None)
        if shown and defect is None:
            continue
        extra = phrase(clean_by[also[0].id], also[0].text, kind, rng) if also else None
        questions = [asked[1]] + ([extra[1]] if extra else [])  # the tick label's question first
        failures = [failed(f"q{k}", q) for k, q in enumerate(questions[::-1], 1)]
        editor = TextEditor()
        best_img = editor.edit(start_img, "", failures, 0)
        boxes = [owned_box(clean_by[spec.id])] + ([owned_box(defect)] if defect is not None else [])
        if also:  # the misspelled tick label owns its boxes on both pages
            boxes += [owned_box(e) for e in (clean_by[also[0].id], *(d for d in defect_els if d.id == also[0].id))]
        moved = [e for e in defect_els if e.id in clean_by and e.id not in wrong and e.box != clean_by[e.id].box]
        boxes += [owned_box(b) for e in moved for b in (e, clean_by[e.id])]  # engine_refine's moved elements
        start, best, clean = (np.asarray(im.convert("RGB")) for im in (start_img, best_img, clean_img))
        hit = damage(start, best, clean, boxes)
        like = likeness(best, clean, clean_by[spec.id].box) if shown == "" else None
        ys, xs = np.nonzero(hit)
        key = f"{engine}-{kind}-{seed}:{spec.id}"
        rows.append(
            {"element": key, "kind": dkind, "shown": shown, "right": spec.text, "question": asked[1],
             "tick_typo": [also[0].id, also[1]] if also else None,
             "actions": [a["action"] for a in editor.last_actions], "damaged_px": int(hit.sum()),
             "boxes": boxes, "damaged_at": list(zip(xs.tolist(), ys.tolist()))[:12], "vs_clean": like}
        )  # fmt: skip
        if out is not None and hit.any():
            stem = key.replace(":", "__")
            for name, im in (("start", start_img), ("best", best_img), ("clean", clean_img)):
                im.save(out / f"{stem}_{name}.png")
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", choices=tuple(KINDS), default="chromium")
    ap.add_argument("--seeds", default="24-29", help='dev seeds: "24-29" or "24,30,36" (default 24-29)')
    ap.add_argument("--kinds", default="typo,swap,drop_word", help="corruptions tried in turn (and missing)")
    ap.add_argument("--roles", default="", help="only elements of these roles (comma-separated; default all askable)")
    ap.add_argument("--tick-typo", action="store_true",
                    help="with an axis title, misspell one tick label of its axis in the same edit")  # fmt: skip
    ap.add_argument("--per", type=int, default=4, help="elements per page (default 4)")
    ap.add_argument("--out", type=Path, default=None, help="pages of the elements that damaged a pixel")
    args = ap.parse_args(argv)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    browser = None
    if args.engine == "chromium":
        from documents.engines.browser import Browser

        browser = Browser()

    def draw(kind, specs, style):
        return draw_chart(kind, specs, style) if browser is None else draw_page(kind, specs, style, browser)

    rows = []
    try:
        for seed in seeds_of(args.seeds):
            for row in probe_page(args.engine, seed, args, draw, args.out):
                print(json.dumps(row), flush=True)
                rows.append(row)
    finally:
        if browser is not None:
            browser.close()
    hit = [r for r in rows if r["damaged_px"]]
    print(f"elements {len(rows)}, with damage {len(hit)}, damaged px {sum(r['damaged_px'] for r in hit)}")
    like = [
        r["vs_clean"]
        for r in rows
        if r["vs_clean"] is not None and r["actions"] and r["actions"][0].startswith("place")
    ]
    if like:
        ends = np.array([v["ends"] for v in like])
        diff = np.mean([v["diff"] for v in like])
        print(
            f"written missing strings {len(like)}: diff from the engine's own rendering {diff:.1f} px mean; ink ends"
            f" off the engine's: left {np.mean(ends[:, 0] != 0):.0%}, right {np.mean(ends[:, 1] != 0):.0%}"
            f" (right mean {ends[:, 1].mean():+.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
