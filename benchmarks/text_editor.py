"""Benchmark: does the offline text editor make edits a designer would accept?

Usage::

    python benchmarks/text_editor.py                       # dev seeds 0-5, report seeds 1000-1005
    python benchmarks/text_editor.py --dev 0 20 --report 1000 1020 --iterations 3 --out runs/bench_text
    python benchmarks/text_editor.py --strip docs/images/text_editor_strip.png   # also a before/after strip

Each seed renders a document (``documents.editor_pages``) with a real layout (a title band,
solid or gradient, with a bold serif or sans title; two columns of headings, wrapped paragraphs,
labels and light-on-dark badges; serif or sans body type; some pages on a gradient), injects the
text errors open generators make into a seeded 40% of its strings (a dropped, swapped or
substituted character, or the whole string missing), and gives every string a check with a text
expectation in the half of the page it belongs to. The refine loop (OCR judge, template writer,
text editor) runs ``--iterations`` edits; then an independent second OCR engine (RapidOCR, ``pip
install -e ".[verify]"``) reads the clean reference, the start image and ``best.png``, and the
script reports per split:

- errors fixed: injected errors whose string RapidOCR reads in best.png / injected errors
  (reads compare without spaces: RapidOCR drops the spaces of some lines, on the clean page too);
- correct strings kept: strings RapidOCR reads in the start image that it still reads after;
- duplicated strings: strings RapidOCR reads more often in best.png than in the clean page;
- pixels changed outside edit boxes: pixels where best.png differs from the start image outside
  every box the editor reported for the kept iterations (share of the image);
- type of rewritten strings: median |size / original size - 1| and the share with the original
  weight (both from the editor's record against the renderer's truth), and the median ratio of
  measured stroke widths (best.png vs the clean page, inside the string's box);
- seconds per document.

The dev split is for tuning; the report split is only measured. Both are printed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from documents.editor_pages import make_item, render_document  # noqa: E402
from refine.edit_audit import action_per_string, changed_outside, kept_actions, occurrences  # noqa: E402
from refine.editors.text import TextEditor, two_means_colours  # noqa: E402
from refine.editors.text.type_match import coverage, stroke_width  # noqa: E402
from refine.loop import RefineLoop  # noqa: E402
from refine.writers.template import TemplateWriter  # noqa: E402
from rewards.judges.ocr import OCRJudge  # noqa: E402
from scripts.verify_example import rapidocr_reader  # noqa: E402


def measure(seed: int, out: Path, read, iterations: int) -> dict:
    """Render, refine and verify one document; per-document counts."""
    clean, start, strings = render_document(seed)
    folder = out / f"doc{seed}"
    folder.mkdir(parents=True, exist_ok=True)
    start.save(folder / "start.png")
    clean.save(folder / "clean.png")
    item = make_item(seed, strings, folder / "start.png")
    loop = RefineLoop(OCRJudge(), TemplateWriter(), TextEditor(), iterations=iterations)
    t0 = time.time()
    loop.run([item], out / "runs" / f"doc{seed}")
    seconds = time.time() - t0
    run_dir = out / "runs" / f"doc{seed}" / f"doc{seed}"
    best = Image.open(run_dir / "best.png").convert("RGB")
    kept = kept_actions(run_dir)
    lines = {name: read(img) for name, img in (("clean", clean), ("start", start), ("best", best))}
    size = start.size
    row = {
        "seed": seed,
        "errors": 0,
        "fixed": 0,
        "correct": 0,
        "kept": 0,
        "duplicated": 0,
        "seconds": seconds,
        "outside_px": changed_outside(start, best, kept),
        "pixels": size[0] * size[1],
        "size_err": [],
        "weight_ok": [],
        "stroke_ratio": [],
        "actions": {},
    }
    for a in kept:
        key = a["action"].split(":")[0].split(" (")[0]
        row["actions"][key] = row["actions"].get(key, 0) + 1
    last = action_per_string(kept)
    for p in strings:
        n_clean, n_start, n_best = (occurrences(p.text, lines[k]) for k in ("clean", "start", "best"))
        if p.corruption:
            row["errors"] += 1
            row["fixed"] += n_best > 0
        elif n_start > 0:
            row["correct"] += 1
            row["kept"] += n_best > 0
        row["duplicated"] += n_best > max(1, n_clean)
        act = last.get(p.text)
        if act and act["action"].startswith("replace") and "type" in act and p.corruption:
            row["size_err"].append(abs(act["type"]["size"] / p.size - 1))
            row["weight_ok"].append(act["type"]["bold"] == p.bold)
            b = p.box
            ring = np.concatenate(
                [
                    np.asarray(clean)[max(0, b[1] - 3), b[0] : b[2]],
                    np.asarray(clean)[min(size[1] - 1, b[3] + 3), b[0] : b[2]],
                ]
            )
            ink, bg = two_means_colours(np.asarray(clean)[b[1] : b[3], b[0] : b[2]].reshape(-1, 3), ring)
            s0 = stroke_width(coverage(np.asarray(clean)[b[1] : b[3], b[0] : b[2]], ink, bg))
            s1 = stroke_width(coverage(np.asarray(best)[b[1] : b[3], b[0] : b[2]], ink, bg))
            if s0 > 0:
                row["stroke_ratio"].append(s1 / s0)
    return row


def summarise(rows: list[dict]) -> dict:
    """Totals and medians over a split's documents."""
    tot = lambda k: sum(r[k] for r in rows)
    flat = lambda k: [v for r in rows for v in r[k]]
    size_err, weight, stroke = flat("size_err"), flat("weight_ok"), flat("stroke_ratio")
    actions: dict[str, int] = {}
    for r in rows:
        for k, v in r["actions"].items():
            actions[k] = actions.get(k, 0) + v
    return {
        "documents": len(rows),
        "errors_fixed": f"{tot('fixed')}/{tot('errors')}",
        "fixed_rate": tot("fixed") / max(1, tot("errors")),
        "correct_kept": f"{tot('kept')}/{tot('correct')}",
        "kept_rate": tot("kept") / max(1, tot("correct")),
        "duplicated_strings": tot("duplicated"),
        "pixels_changed_outside_boxes": tot("outside_px"),
        "outside_share": tot("outside_px") / max(1, tot("pixels")),
        "rewritten_measured": len(size_err),
        "median_size_error": statistics.median(size_err) if size_err else None,
        "right_weight": sum(weight) / len(weight) if weight else None,
        "median_stroke_ratio": statistics.median(stroke) if stroke else None,
        "seconds_per_doc": tot("seconds") / max(1, len(rows)),
        "editor_actions": actions,
    }


def strip(seeds: list[int], out: Path, path: Path, width: int = 360) -> None:
    """A before/after strip: for each seed, start.png beside best.png, scaled to ``width`` px each."""
    pairs = []
    for seed in seeds:
        a = Image.open(out / f"doc{seed}" / "start.png").convert("RGB")
        b = Image.open(out / "runs" / f"doc{seed}" / f"doc{seed}" / "best.png").convert("RGB")
        h = round(a.height * width / a.width)
        pairs.append((a.resize((width, h), Image.Resampling.LANCZOS), b.resize((width, h), Image.Resampling.LANCZOS)))
    gap = 8
    canvas = Image.new("RGB", (2 * width + 3 * gap, sum(p[0].height + gap for p in pairs) + gap), (255, 255, 255))
    y = gap
    for a, b in pairs:
        canvas.paste(a, (gap, y))
        canvas.paste(b, (2 * gap + width, y))
        y += a.height + gap
    path.parent.mkdir(parents=True, exist_ok=True)
    canvas.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)  # a small PNG for the README


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dev", type=int, nargs=2, default=(0, 6), metavar=("FIRST", "END"), help="dev seeds [FIRST, END)")
    ap.add_argument(
        "--report", type=int, nargs=2, default=(1000, 1006), metavar=("FIRST", "END"), help="report seeds [FIRST, END)"
    )
    ap.add_argument("--iterations", type=int, default=3)
    ap.add_argument("--out", type=Path, default=None, help="keep the documents and runs here (default: a temp folder)")
    ap.add_argument(
        "--strip", type=Path, default=None, help="write a before/after strip of the first 3 report documents"
    )
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = ap.parse_args(argv)
    try:
        read = rapidocr_reader()
    except ImportError:
        print('benchmarks/text_editor.py: RapidOCR is missing: pip install -e ".[verify]"', file=sys.stderr)
        return 2
    out = args.out or Path(tempfile.mkdtemp(prefix="bench_text_"))
    report = {}
    for split, (a, b) in (("dev", args.dev), ("report", args.report)):
        rows = []
        for seed in range(a, b):
            rows.append(measure(seed, out, read, args.iterations))
            r = rows[-1]
            print(
                f"{split} doc{seed}: fixed {r['fixed']}/{r['errors']}, kept {r['kept']}/{r['correct']}, "
                f"duplicated {r['duplicated']}, outside px {r['outside_px']}, {r['seconds']:.1f} s",
                flush=True,
            )
        report[split] = summarise(rows)
    for split, s in report.items():
        print(f"\n[{split}] seeds {getattr(args, split)[0]}..{getattr(args, split)[1] - 1}: {s['documents']} documents")
        for k, v in s.items():
            if k != "documents":
                print(f"  {k:30s} {v:.4f}" if isinstance(v, float) else f"  {k:30s} {v}")
    if args.strip:
        strip(list(range(args.report[0], min(args.report[1], args.report[0] + 3))), out, args.strip)
        print(f"strip: {args.strip}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    print(f"documents and runs: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
