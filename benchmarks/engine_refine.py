"""Report: the offline judge and text editor refining pages drawn by real layout engines (issue 32).

Usage::

    python benchmarks/engine_refine.py --split dev                   # 12 charts + 12 pages, 2 edits each
    python benchmarks/engine_refine.py --split dev --n 4 --engine matplotlib --out runs/engine_refine
    python benchmarks/engine_refine.py --split report --n 12 --json runs/engine_refine.json
    python benchmarks/engine_refine.py --split dev --n 24 --only chromium-slide-6 --only matplotlib-pie-23

The documents are :mod:`documents.engines`' (matplotlib charts and Chromium pages with engine
truth; dev = seeds 0..n-1, report = seeds 1000..1000+n-1; nobody tunes on report), drawn once
into ``--cache/<split>``. Each defect page is refined (``refine.loop.RefineLoop``: OCR judge,
template writer, ``refine.editors.text.TextEditor``, ``--iterations`` edits) towards the
questions true on the clean page. Then a second OCR engine (RapidOCR, never the judge's
tesseract) reads the start image, the clean page and best.png, and per error kind (typo, digit,
swap, drop_word, missing) and engine the script prints:

- fixed: of the defects a rubric question asks about (``not_asked``: those none does), the
  defective element's truth box (the clean page's, padded: ``crop_for_reading``, turned
  upright for rotated text; the defect page's where the element stands elsewhere there,
  ``fix_box``) cropped from best.png reads the correct string;
- readable: the same read on the clean page (the second reader's ceiling);
- contradictions: the wrong string is read on best.png more often than on the clean page and the
  right one more often than on the start image;
- written twice: a rubric string (a defect's correct string, or a retyped element's) read on best.png
  more often than on the clean page (and twice), or right after its own first words
  (``adversarial_refine.after_own_prefix``: "... enters Top two clubs are promoted; ...");
- correct strings broken or retyped: elements no defect touched whose truth box has changed pixels
  on best.png against the start image (retyped), of them those RapidOCR read in the start image's
  crop but no longer reads in best.png's (broken); counted under the kind of the check whose
  action touched them ("exact" when that check's element had no defect: a judge misread);
- moved: elements no defect touched whose pixels changed, but whose crop of best.png at their
  clean-page truth box (where the engine sets them when nothing is missing, another box than on
  the defect page) reads their own string or holds the clean page's own pixels (``moved_there``):
  the items an engine moved up when the one before them was left out, moved back down by the
  editor's insert, as a designer re-lays a list. They are counted here and not as retyped, and
  their boxes (defect and clean page) are the element's own pixels in the damage count; a moved
  element whose clean-box crop does neither is retyped, and every other pixel still counts as damage;
- damaged pixels: every pixel changed against the start image outside the truth boxes (clean and
  defect page) of the defective elements (a list item's box with its marker: the engine's box is
  its text's, and the bullet, ``MARKER`` line heights left of it, is the item's too; a legend
  entry's with its swatch, ``SWATCH`` box heights left of it) and outside their own ink
  (``own_ink``: the engine's box is the text's advance box, and its antialiased ink reaches a
  pixel past it, on the clean page or the start image), attributed to the kind of the action
  whose boxes hold it ("none" when no action's do).

``--out`` keeps per document the refine run and ``before_after.png`` (start beside best.png).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.adversarial_refine import (  # noqa: E402
    ReadOnceJudge,
    crop_for_reading,
    is_contradiction,
    side_by_side,
    written_twice,
)
from documents.engines import DEFECT_KINDS, ENGINES, SPLITS, Doc, build_split  # noqa: E402
from refine.edit_audit import kept_actions, occurrences  # noqa: E402
from refine.editors.text import TextEditor  # noqa: E402
from refine.loop import RefineLoop  # noqa: E402
from refine.writers.template import TemplateWriter  # noqa: E402
from rewards.importers import expectations_of  # noqa: E402
from rewards.rubric import Check, Criterion, Item, Rubric  # noqa: E402
from rewards.text.ocr.text_match import Line, Word  # noqa: E402
from rewards.text.questions.question_compiler import compile_question  # noqa: E402

Box = tuple[int, int, int, int]
KINDS_SHOWN = (*DEFECT_KINDS, "exact", "none")
MARKER = 1.5
"""How far (its line heights) left of a list item's text box its marker (bullet) reaches."""
SWATCH = 3.0
"""How far (its text box heights) left of a legend entry's text box its swatch reaches (matplotlib:
``handlelength`` 2 em plus ``handletextpad`` 0.8 em; a box is about 1.2 em high)."""


def make_refine_item(doc: Doc) -> Item:
    """The refine item of ``doc``'s defect page: every question true on the clean page, compiled
    as the importers compile them."""
    checks = []
    for q in doc.questions:
        if q.answers["clean"] == "yes":
            spec = compile_question(q.question)
            checks.append(Check(q.id, q.question, tag=q.kind, expects=expectations_of(spec), spec=spec))
    return Item(doc.id, f"a {doc.kind} drawn by {doc.engine}", Rubric((Criterion("text", tuple(checks)),)),
                image=doc.image_path)  # fmt: skip


def mask_of(shape: tuple[int, int], boxes, pad: int = 0) -> np.ndarray:
    """A (H, W) bool mask, True inside any box (x0, y0, x1, y1, end-exclusive), grown by ``pad``."""
    m = np.zeros(shape, bool)
    for x0, y0, x1, y1 in boxes:
        m[max(0, y0 - pad) : max(0, y1 + pad), max(0, x0 - pad) : max(0, x1 + pad)] = True
    return m


def action_boxes(action: dict) -> list[Box]:
    """Every box an editor action reported (written, inked, erased, changed)."""
    out = [action["box"]] if action.get("box") else []
    for key in ("inked", "erased", "boxes"):
        out += action.get(key, []) or []
    return [tuple(b) for b in out]


def owned_box(e) -> Box:
    """The pixels element ``e`` owns: its truth box, widened left over its marker for a list item
    and over its swatch for a legend entry."""
    x0, y0, x1, y1 = e.box
    reach = {"list_item": MARKER, "legend_entry": SWATCH}.get(e.role, 0.0)
    return (x0 - round(reach * (y1 - y0)), y0, x1, y1)


BLEED = 1
"""How far (px) past its truth box an element's own ink may reach (``own_ink``)."""


def own_ink(pages: list[np.ndarray], boxes, bleed: int = BLEED) -> np.ndarray:
    """(H, W) bool: the pixels within ``bleed`` px outside ``boxes`` that are ink on one of
    ``pages`` (uint8 (H, W, 3), the clean page and the start image): more than 8 (any channel)
    off the median colour of the ring 2 px outside the grown box. An engine reports a text's
    advance box; matplotlib draws the "J" of "Jun" a column left of it and Chromium a "W" a
    column left of its heading's box, and a rewrite that redraws those pixels changed nothing
    outside the element."""
    h, w = pages[0].shape[:2]
    out = np.zeros((h, w), bool)
    for x0, y0, x1, y1 in boxes:
        a0, b0, a1, b1 = max(0, x0 - bleed), max(0, y0 - bleed), min(w, x1 + bleed), min(h, y1 + bleed)
        r0, s0, r1, s1 = max(0, a0 - 2), max(0, b0 - 2), min(w, a1 + 2), min(h, b1 + 2)
        for page in pages:
            ring = mask_of((h, w), [(r0, s0, r1, s1)]) & ~mask_of((h, w), [(a0, b0, a1, b1)])
            if not ring.any():
                continue
            bg = np.median(page[ring].astype(np.int16), axis=0)
            ink = np.abs(page[b0:b1, a0:a1].astype(np.int16) - bg).max(2) > 8
            out[b0:b1, a0:a1] |= ink
    return out & ~mask_of((h, w), boxes)


def fix_box(clean_el, defect_el) -> Box:
    """The box where the fix of a defective element is read on best.png: its clean page's truth box,
    or its defect page's (``defect_el``, None when the defect removed it) when that one does not
    overlap it. Another defect can move an element: a missing subtitle let matplotlib's pie grow,
    and the slice label "Socjal", rewritten "Social" where it stood 17 px higher and 14 px further
    right than on the clean page, was read in the clean page's box, where best.png shows none of it
    (dev matplotlib-pie-13). The editor fixes a string where the page shows it: a box moved more
    than ``MOVED_PX`` up or down but still overlapping is read at the defect page's top, as wide
    and tall as the larger of the two."""
    a = clean_el.box
    if defect_el is None:
        return a
    b = defect_el.box
    apart = min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1])
    if apart:
        return b
    if abs(a[1] - b[1]) > MOVED_PX:  # moved up or down, still overlapping: read where the page shows it
        return min(a[0], b[0]), b[1], max(a[2], b[2]), b[1] + max(a[3] - a[1], b[3] - b[1])
    return a


MOVED_PX = 3
"""Least vertical offset (px) of an element's defect-page box from its clean-page box for the fix
to be read at the defect page's row (``fix_box``): a missing byline moved tester8's article body
28 px up, and its paragraph and heading, fixed where they stand, were read in the clean page's
boxes, on the lines above them (dev fresh8-article-8)."""


def rows_of(lines: list[Line]) -> list[Line]:
    """The OCR ``lines`` of one crop joined into rows: lines whose vertical middles lie inside one
    another's span are one row, left to right (RapidOCR returns "Online" and "store" of one
    label as two lines)."""
    rows: list[list[Word]] = []
    for ln in sorted(lines, key=lambda ln: ln.box[0]):
        mid = (ln.box[1] + ln.box[3]) / 2
        row = next((r for r in rows if r[0].box[1] <= mid <= r[0].box[3]), None)
        if row is None:
            rows.append(list(ln.words))
        else:
            row.extend(ln.words)
    return [Line(tuple(r)) for r in sorted(rows, key=lambda r: r[0].box[1])]


def read_crop(image: Image.Image, box: Box, angle: int, text: str, read) -> bool:
    """Whether ``text`` is read in ``box`` of ``image`` (padded and turned upright), its lines
    joined into rows (``rows_of``)."""
    return occurrences(text, rows_of(read(crop_for_reading(image, box, angle)))) > 0


SAME_AS_CLEAN = 0.99
"""Share of an element's clean-page box whose pixels on best.png are within ``SAME_LEVELS`` of the
clean page's for it to stand as the engine sets it (``moved_there``)."""
SAME_LEVELS = 16


def moved_there(e, clean, best: Image.Image, read, clean_page: Image.Image | None = None) -> bool:
    """Whether the untouched element ``e`` (of the defect page) was moved to where the engine
    sets it on the clean page: ``clean`` (its clean-page element) has another box than ``e``,
    and that box cropped from ``best`` reads ``e``'s own string, or its pixels there are the
    clean page's (``SAME_AS_CLEAN`` of them within ``SAME_LEVELS``: RapidOCR reads some of
    Chromium's list items run together, "twoweeks", on the clean page itself, and a crop
    identical to the engine's own render is where the engine sets it). An item the engine moved
    up when the one before it was left out, moved back down by the editor as a designer re-lays
    the list, is not a retyped string."""
    if clean is None or tuple(clean.box) == tuple(e.box) or clean.text != e.text:
        return False
    if read_crop(best, clean.box, clean.angle, e.text, read):
        return True
    if clean_page is None:
        return False
    x0, y0, x1, y1 = (int(round(v)) for v in clean.box)
    a = np.asarray(best, dtype=np.int16)[y0:y1, x0:x1]
    b = np.asarray(clean_page, dtype=np.int16)[y0:y1, x0:x1]
    return a.size > 0 and float((np.abs(a - b).max(axis=2) <= SAME_LEVELS).mean()) >= SAME_AS_CLEAN


def action_kind(action: dict, q_kind: dict[str, str]) -> str:
    """The error kind of the check an action served ("exact": a check without a defect)."""
    return q_kind.get(action.get("check"), "none")


def measure_doc(doc: Doc, start: Image.Image, best: Image.Image, actions: list[dict], read) -> dict:
    """The figures of one refined document (module docstring), per error kind."""
    clean_page = Image.open(doc.pages["clean"].image_path).convert("RGB")
    lines = {"clean": read(clean_page), "start": read(start), "best": read(best)}
    clean_el = {e.id: e for e in doc.elements}
    defect_el = {e.id: e for e in doc.pages["defect"].elements}
    q_kind = {q.id: q.truth_kind for q in doc.questions}
    per: dict = defaultdict(lambda: defaultdict(int))
    details = []
    asked = {(q.element, q.truth_kind) for q in doc.questions if q.answers["clean"] == "yes"}
    for d in doc.defects:
        e = clean_el[d.element]
        if (d.element, d.kind) not in asked:  # no question of the rubric names it: nothing to fix
            per[d.kind]["not_asked"] += 1
            continue
        per[d.kind]["readable"] += read_crop(clean_page, e.box, e.angle, d.correct, read)
        fixed = read_crop(best, fix_box(e, defect_el.get(d.element)), e.angle, d.correct, read)
        contra = is_contradiction(d.shown, d.correct, lines["best"], lines["clean"], lines["start"])
        per[d.kind]["errors"] += 1
        per[d.kind]["fixed"] += fixed
        per[d.kind]["contradictions"] += contra
        details.append({"kind": d.kind, "element": d.element, "correct": d.correct, "shown": d.shown,
                        "fixed": fixed, "contra": contra})  # fmt: skip
        if written_twice(d.correct, lines["best"], lines["clean"]):
            per[d.kind]["written_twice"] += 1
            details.append({"twice": d.correct})
    defective = {d.element for d in doc.defects}
    allowed = [owned_box(clean_el[i]) for i in defective]
    allowed += [owned_box(defect_el[i]) for i in defective if i in defect_el]
    changed = (np.asarray(best) != np.asarray(start)).any(2)  # (H, W) bool
    shape = changed.shape
    for e in doc.pages["defect"].elements:
        if e.id in defective or not changed[mask_of(shape, [e.box])].any():
            continue
        by = [a for a in actions if mask_of(shape, action_boxes(a))[mask_of(shape, [e.box])].any()]
        kind = action_kind(by[0], q_kind) if by else "none"
        if moved_there(e, clean_el.get(e.id), best, read, clean_page):  # an item moved back where the engine sets it
            per[kind]["moved"] += 1
            allowed += [owned_box(e), owned_box(clean_el[e.id])]
            details.append({"moved": e.id, "text": e.text, "by": kind})
            continue
        per[kind]["retyped"] += 1
        if written_twice(e.text, lines["best"], lines["clean"]):  # a right string written again after itself
            per[kind]["written_twice"] += 1
        broken = read_crop(start, e.box, e.angle, e.text, read) and not read_crop(best, e.box, e.angle, e.text, read)
        per[kind]["broken"] += broken
        details.append({"retyped": e.id, "text": e.text, "broken": broken, "by": kind})
    damage = changed & ~mask_of(shape, allowed) & ~own_ink([np.asarray(clean_page), np.asarray(start)], allowed)
    for a in actions:
        part = damage & mask_of(shape, action_boxes(a), pad=2)
        per[action_kind(a, q_kind)]["damaged_px"] += int(part.sum())
        damage &= ~part
    per["none"]["damaged_px"] += int(damage.sum())
    return {"doc": doc.id, "engine": doc.engine, "per_kind": {k: dict(v) for k, v in per.items()}, "details": details}


def refine_doc(doc: Doc, out: Path, iterations: int, judge) -> tuple[Image.Image, Image.Image, list[dict]]:
    """Refine ``doc``'s defect page into ``out/<doc id>``; (start image, best image, kept actions)."""
    loop = RefineLoop(judge, TemplateWriter(), TextEditor(), iterations=iterations)
    summary = loop.run([make_refine_item(doc)], out / doc.id)
    run_dir = out / doc.id / summary["items"][0]["best_image"].split("/")[0]
    start = Image.open(doc.image_path).convert("RGB")
    best = Image.open(run_dir / "best.png").convert("RGB")
    return start, best, kept_actions(run_dir)


def total(rows: list[dict], engine: str | None = None) -> dict[str, dict[str, int]]:
    """Per kind the sums of the documents' figures (of one engine, or all)."""
    out: dict = defaultdict(lambda: defaultdict(int))
    for r in rows:
        if engine is None or r["engine"] == engine:
            for kind, figs in r["per_kind"].items():
                for k, v in figs.items():
                    out[kind][k] += v
    return {k: dict(v) for k, v in out.items()}


def print_table(label: str, t: dict[str, dict[str, int]]) -> None:
    """One table: a row per error kind and the sum."""
    cols = ("fixed", "contradictions", "written_twice", "retyped", "broken", "moved", "damaged_px", "readable",
            "not_asked")  # fmt: skip
    ws = (7, 6, 8, 7, 6, 11, 9, 10)
    print(f"\n{label}")
    print(f"  {'kind':<10} {'fixed':>9} {'contra':>7} {'twice':>6} {'retyped':>8} {'broken':>7} {'moved':>6}"
          f" {'damaged_px':>11}"
          f" {'readable':>9} {'not_asked':>10}")  # fmt: skip
    sums: dict = defaultdict(int)
    for kind in KINDS_SHOWN:
        f = t.get(kind)
        if not f:
            continue
        for c in (*cols, "errors"):
            sums[c] += f.get(c, 0)
        fixed = f"{f.get('fixed', 0)}/{f['errors']}" if f.get("errors") else "-"
        print(f"  {kind:<10} {fixed:>9} " + " ".join(f"{f.get(c, 0):>{w}}" for c, w in zip(cols[1:], ws)))
    print(f"  {'all':<10} {str(sums['fixed']) + '/' + str(sums['errors']):>9} "
          + " ".join(f"{sums[c]:>{w}}" for c, w in zip(cols[1:], ws)))  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", choices=SPLITS, default="dev")
    ap.add_argument("--n", type=int, default=12, help="documents per engine (default 12)")
    ap.add_argument("--engine", choices=ENGINES, action="append", help="repeatable; default both")
    ap.add_argument("--iterations", type=int, default=2, help="refine edits per document (default 2)")
    ap.add_argument("--cache", type=Path, default=ROOT / "runs" / "engine_docs", help="where the documents are drawn")
    ap.add_argument("--out", type=Path, default=None, help="refine runs and before_after.png (default: a temp folder)")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    ap.add_argument("--only", action="append", help="refine only this document id (repeatable; default all)")
    args = ap.parse_args(argv)
    if args.n < 1 or args.iterations < 0:
        ap.error("--n must be >= 1 and --iterations >= 0")
    try:
        from scripts.verify_example import rapidocr_reader

        read = rapidocr_reader()
    except ImportError:
        print("benchmarks/engine_refine.py: RapidOCR is missing: pip install rapidocr-onnxruntime", file=sys.stderr)
        return 2
    out = args.out or Path(tempfile.mkdtemp(prefix="engine_refine_"))
    judge = ReadOnceJudge()
    rows = []
    for engine in args.engine or ENGINES:
        for doc in build_split(args.split, engine, args.cache / args.split, args.n):
            if args.only and doc.id not in args.only:
                continue
            t0 = time.time()
            start, best, actions = refine_doc(doc, out, args.iterations, judge)
            side_by_side(start, best).save(out / doc.id / "before_after.png")
            rows.append(measure_doc(doc, start, best, actions, read) | {"seconds": time.time() - t0})
            t = total(rows[-1:])
            fixed = sum(f.get("fixed", 0) for f in t.values())
            dmg = sum(f.get("damaged_px", 0) for f in t.values())
            print(f"{doc.id}: fixed {fixed}/{len(doc.defects)}, damaged px {dmg}, {rows[-1]['seconds']:.0f} s",
                  flush=True)  # fmt: skip
    for engine in args.engine or ENGINES:
        print_table(f"[{args.split}] {engine}", total(rows, engine))
    print_table(f"[{args.split}] all engines", total(rows))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"split": args.split, "totals": total(rows), "documents": rows}, indent=1))
    print(f"\nruns and before_after.png: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
