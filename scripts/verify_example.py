"""Check a refine run on the bundled example with a second, independent OCR engine.

Usage::

    python scripts/verify_example.py --out <refine output dir> [--json report.json]
    python scripts/verify_example.py --out <dir> --manifest <other rendered set>/manifest.json
    python scripts/verify_example.py --out <dir> --engine tesseract   # when rapidocr is missing

For every item of the manifest (default ``refine/example/manifest.json``, written by
``documents/example.py``, rebuilt by ``python -m refine.example.render``) it reads
``<out>/<item_id>/best.png`` (the refine loop's best iteration) and the item's start image, and
prints a table with, per item and in total:

- fixed / errors: injected errors whose string the engine finds in best.png (an error whose
  string it already finds in the start image, a misread in the error's favour, is listed as
  ``read_in_start``: its "fixed" says nothing);
- broken / correct: strings rendered correctly that the engine finds in the start image but not
  in best.png (so the engine's own misreads are not counted as breakage);
- dup: duplicated strings, manifest strings the engine reads more often in best.png than in the
  start image, and at least twice (``refine.edit_audit.occurrences`` counts them). Occurrences
  inside a longer string the editor wrote for a check (a kept place or replace action whose
  text holds the string, e.g. "Best AP" for "AP") are expected, not duplicates: the start count
  is raised by how often the action's text holds the string beyond its old text (``was``);
- outside px: pixels where best.png differs from the start image outside the union of the
  ``boxes`` of the editor actions kept up to the best iteration (``result.json``'s
  ``best_iteration``, ``instructions.jsonl``); n/a when those files are missing;
- loose: strings the editor wrote outside a slot (kept actions "place" and "place (first of its
  group of N)": loose text in free space of the check's place, which ``TextEditor(free_space=True)``
  writes; a slot is an empty badge, the next item of a list or row, an empty table cell, the
  line directly under an anchor); n/a without the actions;
- size err and weight, for the corrupted strings the editor replaced: the median of
  |size / original size - 1| (the action's ``type.size`` against the renderer's size) and the
  share with the original weight (``type.bold``). The renderer sets both from the string's
  role: a title is DejaVu Serif Bold at round(1.6 * body_px), a button bold at body_px, other
  text regular at body_px.

The counts are shown twice: exact (the judge's matching rules of :mod:`rewards.text.ocr.text_match`,
case-sensitive, any region, a string may wrap over up to ``edit_audit.MAX_LINES`` lines of a
column) and with spaces ignored (RapidOCR drops the spaces of some lines, "TOBEFREE",
"week:Female", also on clean renders). ``--ignore-spaces`` picks which of the two the totals line
and the JSON's top-level counts report.

Engine: RapidOCR (``pip install -e ".[verify]"``, PP-OCRv4 ONNX weights inside the wheel), a
different engine from the judge's tesseract, run without its text-direction classifier
(``use_cls=False``: the pages are upright, and the classifier turned the white "decoder" on a
small blue button of item 381 upside down, which the recogniser then read as "prr" at score
0.28, under RapidOCR's 0.5 cut, so nothing; a 2x read alone did not help). Each image is read at
every ``--scales`` factor (default 1 and 2, Lanczos upsampling; boxes mapped back) and a string
counts as found when it is found in any of the reads, and as often as the read that holds it most often; start and best
images are read the same way, so broken and fixed are counted symmetrically. The 2x read gets
the spaces right where the 1x read drops them ("At least once a week: Female totals 27%").
With ``--engine tesseract`` it is tesseract psm 3, which is *not* independent of the judge.

Exit status: 0, 1 when an item could not be measured (named on stderr; the others are), 2 for
bad options or an unreadable manifest.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from PIL import Image

from refine.edit_audit import action_per_string, changed_outside, damaged, kept_actions, occurrences
from refine.editors.edit_log import category
from rewards.text.ocr.text_match import Line, Word

EXAMPLE = Path(__file__).resolve().parents[1] / "refine" / "example"
MODES = {"exact": False, "spaces_ignored": True}


def rapidocr_reader(scale: float = 1.0):
    """A function image -> list[Line] backed by RapidOCR: one line per detected text box, boxes
    in the input image's pixels. The image is resized by ``scale`` (Lanczos) before reading; the
    text-direction classifier is off (``use_cls=False``). Raises ImportError without
    ``rapidocr-onnxruntime``."""
    import numpy as np
    from rapidocr_onnxruntime import RapidOCR

    engine = RapidOCR()

    def read(image: Image.Image) -> list[Line]:
        image = image.convert("RGB")
        if scale != 1:
            image = image.resize((round(image.width * scale), round(image.height * scale)), Image.Resampling.LANCZOS)
        result, _ = engine(np.asarray(image)[:, :, ::-1], use_cls=False)  # RapidOCR expects BGR
        lines = []
        for points, text, _score in result or []:
            xs, ys = [p[0] / scale for p in points], [p[1] / scale for p in points]
            lines.append(Line((Word(text, (int(min(xs)), int(min(ys)), int(max(xs)), int(max(ys)))),)))
        return lines

    return read


def tesseract_reader(scale: float = 1.0):
    """A function image -> list[Line]: tesseract psm 3 at ``scale`` (not independent of the judge)."""
    from rewards.text.ocr.ocr_read import ocr_lines

    return lambda image: ocr_lines(image, psm=3, scale=scale)


def original_type(entry: dict, string: dict) -> tuple[int, bool] | None:
    """(font size in pixels, bold) ``documents/example.py`` drew ``string`` of manifest item
    ``entry`` in, from its role; None when the manifest lacks ``body_px`` or the role is unknown."""
    body = entry.get("body_px")
    role = string.get("role")
    if body is None or role not in ("title", "button", "body"):
        return None
    return {"title": (round(body * 1.6), True), "button": (body, True), "body": (body, False)}[role]


def count(text: str, reads: list[list[Line]], ignore_spaces: bool) -> int:
    """Occurrences of ``text`` in the read that holds it most often."""
    return max((occurrences(text, lines, ignore_spaces) for lines in reads), default=0)


def written_inside(text: str, actions: list[dict], ignore_spaces: bool) -> int:
    """How many more occurrences of ``text`` the written (placed or rewritten) strings other than
    ``text`` itself hold than the text they replaced."""

    def held(s: str) -> int:
        return occurrences(text, [Line((Word(s, (0, 0, 1, 1)),))], ignore_spaces) if s else 0

    return sum(
        max(0, held(a["text"]) - held(a.get("was") or ""))
        for a in actions
        if a["text"] != text and category(a["action"]) != "left_alone"
    )


def loose(actions: list[dict]) -> int:
    """How many of ``actions`` wrote a string outside a slot: "place" or "place (first of its
    group of N)" (``refine.editors.text.place_in_free_space``)."""
    return sum(a["action"] == "place" or a["action"].startswith("place (first of its group") for a in actions)


def measure_item(
    entry: dict,
    start_reads: list[list[Line]],
    best_reads: list[list[Line]],
    outside_px: int | None,
    actions: list[dict] | None,
) -> dict:
    """One item's figures: per mode the counts and the strings behind them; the outside pixels;
    the type of each replaced corrupted string (``actions`` None: not known)."""
    row: dict = {"outside_px": outside_px, "loose": None if actions is None else loose(actions)}
    for mode, ignore in MODES.items():
        m = {
            "fixed": 0,
            "errors": 0,
            "broken": 0,
            "correct": 0,
            "duplicated": 0,
            "unfixed": [],
            "read_in_start": [],
            "broken_strings": [],
            "duplicated_strings": [],
            "expected_repeats": [],
        }
        for s in entry["strings"]:
            n_start, n_best = count(s["text"], start_reads, ignore), count(s["text"], best_reads, ignore)
            n_written = written_inside(s["text"], actions or [], ignore)
            if s["corrupted"]:
                m["errors"] += 1
                m["fixed"] += n_best > 0
                if not n_best:
                    m["unfixed"].append(s["text"])
                if n_start:
                    m["read_in_start"].append(s["text"])
            elif n_start:
                m["correct"] += 1
                if not n_best:
                    m["broken"] += 1
                    m["broken_strings"].append(s["text"])
            if n_best > max(1, n_start + n_written):
                m["duplicated"] += 1
                m["duplicated_strings"].append(
                    f"{s['text']} ({n_start} -> {n_best}, {n_written} inside written strings)"
                )
            elif n_best > max(1, n_start):
                m["expected_repeats"].append(f"{s['text']} ({n_start} -> {n_best}, {n_written} inside written strings)")
        row[mode] = m
    row["replaced"] = None
    if actions is not None:
        decided = action_per_string(actions)
        row["replaced"] = []
        for s in entry["strings"]:
            act, truth = decided.get(s["text"]), original_type(entry, s)
            if s["corrupted"] and truth and act and act["action"].startswith("replace") and "type" in act:
                row["replaced"].append(
                    {
                        "text": s["text"],
                        "size": act["type"]["size"],
                        "true_size": truth[0],
                        "size_err": abs(act["type"]["size"] / truth[0] - 1),
                        "bold": act["type"]["bold"],
                        "true_bold": truth[1],
                    }
                )
    return row


def type_figures(replaced: list[dict] | None) -> dict:
    """Median size error ([0, inf), 0.05 = 5%), right-weight count and share ([0, 1]) over replaced
    strings (None when unknown or none)."""
    if not replaced:
        return {
            "replaced": 0 if replaced is not None else None,
            "median_size_error": None,
            "right_weight": None,
            "right_weight_share": None,
        }
    right = sum(r["bold"] == r["true_bold"] for r in replaced)
    return {
        "replaced": len(replaced),
        "median_size_error": statistics.median(r["size_err"] for r in replaced),
        "right_weight": right,
        "right_weight_share": right / len(replaced),
    }


def summarise(rows: dict[str, dict]) -> dict:
    """Totals over items: per mode the summed counts, the outside pixels (None if any item's are
    unknown) and the type figures over all replaced strings."""
    out = {}
    for mode in MODES:
        out[mode] = {
            k: sum(r[mode][k] for r in rows.values()) for k in ("fixed", "errors", "broken", "correct", "duplicated")
        }
    for key in ("outside_px", "loose"):
        vals = [r[key] for r in rows.values()]
        out[key] = None if None in vals else sum(vals)
    known = [r["replaced"] for r in rows.values() if r["replaced"] is not None]
    out.update(type_figures([x for rep in known for x in rep] if known else None))
    return out


def table(rows: dict[str, dict], total: dict) -> str:
    """The figures as a text table, one row per item and a total row."""
    head = (
        f"{'':8s}{'exact':^22s}| {'spaces ignored':^21s}|\n"
        f"{'item':8s}{'fixed':>8s}{'broken':>8s}{'dup':>5s} |{'fixed':>8s}{'broken':>8s}{'dup':>5s} |"
        f"{'outside px':>11s}{'loose':>6s}{'size err':>10s}{'weight':>8s}"
    )

    def fmt(name: str, r: dict, t: dict) -> str:
        cells = "".join(
            f"{r[m]['fixed']:>4d}/{r[m]['errors']:<3d}{r[m]['broken']:>4d}/{r[m]['correct']:<3d}"
            f"{r[m]['duplicated']:>5d} |"
            for m in MODES
        )
        px = "n/a" if r["outside_px"] is None else str(r["outside_px"])
        lo = "n/a" if r["loose"] is None else str(r["loose"])
        err = "n/a" if t["median_size_error"] is None else f"{100 * t['median_size_error']:.1f}%"
        weight = "n/a" if t["right_weight"] is None else f"{t['right_weight']}/{t['replaced']}"
        return f"{name:8s}{cells}{px:>11s}{lo:>6s}{err:>10s}{weight:>8s}"

    lines = [head, "-" * len(head.splitlines()[1])]
    lines += [fmt(item_id, r, type_figures(r["replaced"])) for item_id, r in rows.items()]
    lines += ["-" * len(head.splitlines()[1]), fmt("all", total, total)]
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    """The command line of this script."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="refine output dir holding <item_id>/best.png")
    ap.add_argument("--manifest", type=Path, default=EXAMPLE / "manifest.json")
    ap.add_argument("--engine", choices=("rapidocr", "tesseract"), default="rapidocr")
    ap.add_argument(
        "--scales",
        type=float,
        nargs="+",
        default=[1.0, 2.0],
        help="read each image at these scale factors; found in any read counts (default 1 2)",
    )
    ap.add_argument("--json", type=Path, default=None, help="also write the report here")
    ap.add_argument(
        "--ignore-spaces",
        action="store_true",
        help="the totals line and the JSON's top-level counts compare without spaces",
    )
    return ap


def measure_items(out: Path, manifest: Path, entries: list[dict], readers: list) -> tuple[dict, dict, dict]:
    """Read each manifest entry's start image and its ``<out>/<id>/best.png`` with ``readers``:
    (rows: id -> ``measure_item`` row, failed: id -> why it was not measured, damage: id -> damaged
    pixels or None when the item's instructions are missing). A bad item is reported and skipped."""
    rows, failed = {}, {}
    damage: dict[str, int | None] = {}  # refine.edit_audit.damaged: changed pixels that are glyphs of no string
    for entry in entries:
        item_id = str(entry.get("id", "?"))
        run_dir = out / item_id
        try:
            best_img = Image.open(run_dir / "best.png").convert("RGB")
            start_img = Image.open(manifest.parent / entry["image"]).convert("RGB")
            try:
                actions = kept_actions(run_dir)
                outside = changed_outside(start_img, best_img, actions)
                damage[item_id] = damaged(start_img, best_img, actions)["damaged_px"]
            except FileNotFoundError as e:
                print(f"item {item_id}: {e.filename}: missing, no outside-pixel or type figures", file=sys.stderr)
                actions = outside = damage[item_id] = None
            start_reads = [read(start_img) for read in readers]
            best_reads = [read(best_img) for read in readers]
            rows[item_id] = measure_item(entry, start_reads, best_reads, outside, actions)
        except (OSError, ValueError, KeyError, TypeError) as e:
            failed[item_id] = f"{type(e).__name__}: {e}"
            print(f"item {item_id}: not measured ({failed[item_id]})", file=sys.stderr)
            continue
        print(f"item {item_id}: read", file=sys.stderr, flush=True)
    return rows, failed, damage


def print_report(rows: dict, total: dict, damage: dict, args: argparse.Namespace) -> None:
    """Print the table, the totals line, the damage line and each item's unfixed, broken and doubled strings."""
    mode = "spaces_ignored" if args.ignore_spaces else "exact"
    reads = ", ".join(f"{s:g}x" for s in args.scales)
    print(f"[{args.engine}, reads at {reads}]")
    print(table(rows, total))
    t = total[mode]
    print(
        f"[{args.engine}{', spaces ignored' if args.ignore_spaces else ''}] "
        f"injected errors fixed: {t['fixed']}/{t['errors']}; "
        f"correct strings broken: {t['broken']}/{t['correct']}; duplicated strings: {t['duplicated']}; "
        f"pixels changed outside edit boxes: {total['outside_px']}; strings written outside a slot: {total['loose']}"
    )
    measured = [damage.get(i) for i in rows]
    print(
        "pixels damaged outside the strings written (glyphs of neither the words replaced nor the strings written): "
        + ("n/a" if None in measured else str(sum(measured)))
    )
    if total["replaced"]:
        print(
            f"replaced corrupted strings: {total['replaced']}, median font-size error "
            f"{100 * total['median_size_error']:.1f}%, right weight {100 * total['right_weight_share']:.1f}%"
        )
    for item_id, r in rows.items():
        m = r[mode]
        for key in ("unfixed", "read_in_start", "broken_strings", "duplicated_strings", "expected_repeats"):
            for text in m[key]:
                print(f"  item {item_id} {key.replace('_strings', '')}: {text[:90]}")


def main(argv: list[str] | None = None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    if any(s <= 0 for s in args.scales):
        ap.error("--scales: every factor must be > 0")
    if not args.out.is_dir():
        print(f"{args.out}: not a refine output folder", file=sys.stderr)
        return 2
    try:
        manifest = json.loads(args.manifest.read_text(encoding="utf-8"))
        entries = manifest["items"]
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as e:
        print(f"{args.manifest}: cannot read manifest ({e!r})", file=sys.stderr)
        return 2
    try:
        make = rapidocr_reader if args.engine == "rapidocr" else tesseract_reader
        readers = [make(s) for s in args.scales]
    except ImportError:
        print(
            "rapidocr-onnxruntime is not installed: .venv/bin/pip install -e .[verify], or rerun with "
            "--engine tesseract (not independent of the judge)",
            file=sys.stderr,
        )
        return 2
    rows, failed, damage = measure_items(args.out, args.manifest, entries, readers)
    total = summarise(rows)
    print_report(rows, total, damage, args)
    if args.json:
        report = {
            "engine": args.engine,
            "scales": args.scales,
            "ignore_spaces": args.ignore_spaces,
            **total["spaces_ignored" if args.ignore_spaces else "exact"],
            "totals": total,
            "items": rows,
            "failed": failed,
        }
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
