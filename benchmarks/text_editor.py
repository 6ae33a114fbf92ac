"""Benchmark: does the offline text editor make edits a designer would accept?

Usage::

    python benchmarks/text_editor.py                       # dev seeds 0-5, report seeds 1000-1005
    python benchmarks/text_editor.py --dev 0 20 --report 1000 1020 --iterations 3 --out runs/bench_text
    python benchmarks/text_editor.py --strip docs/images/text_editor_strip.png   # also a before/after strip

Each seed renders a document with a real layout (a title band, solid or gradient, with a bold
serif or sans title; two columns of headings, wrapped paragraphs, labels and light-on-dark
badges; serif or sans body type; some pages on a gradient), injects the text errors open
generators make into a seeded 40% of its strings (a dropped, swapped or substituted
character, or the whole string missing), and gives every string a check with a text
expectation in the half of the page it belongs to. The refine loop (OCR judge, template
writer, text editor) runs ``--iterations`` edits; then an independent second OCR engine
(RapidOCR, ``pip install -e ".[verify]"``) reads the clean reference, the start image and
``best.png``, and the script reports per split:

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
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from refine.edit_audit import action_per_string, changed_outside, kept_actions, occurrences  # noqa: E402
from refine.editors.text import TextEditor, two_means_colours  # noqa: E402
from refine.editors.text.type_match import coverage, installed_faces, stroke_width  # noqa: E402
from refine.example.render import corrupt, wrap  # noqa: E402
from refine.loop import RefineLoop  # noqa: E402
from refine.writers.template import TemplateWriter  # noqa: E402
from rewards.judges.ocr import OCRJudge  # noqa: E402
from rewards.rubric import Check, Criterion, Item, Rubric, TextExpectation  # noqa: E402
from scripts.verify_example import rapidocr_reader  # noqa: E402

WORDS = (
    "market growth revenue customer service quality design team report annual plan budget "
    "strategy product launch sales region partner network energy future digital cloud data "
    "insight value support program event summer winter health safety travel finance share "
    "global local people vision mission impact focus review results goals brand story"
).split()
KINDS = ("drop", "swap", "substitute", "missing")


@dataclass
class Placed:
    """One string of a rendered document and the truth about how it was typeset."""

    text: str
    role: str  # title | heading | body | label | badge
    family: str
    bold: bool
    size: int
    region: str
    box: tuple[int, int, int, int] = (0, 0, 0, 0)
    corruption: str | None = None
    rendered: str = ""
    lines: list[str] = field(default_factory=list)


def _phrase(rng: random.Random, n: int, used: set) -> str:
    while True:
        words = rng.sample(WORDS, n)
        text = " ".join(words).capitalize()
        if text not in used and not any(text in u or u in text for u in used):
            used.add(text)
            return text


def _sentence(rng: random.Random, n: int, used: set) -> str:
    parts = [_phrase(rng, rng.randint(4, 7), used).lower() for _ in range(n)]
    text = ". ".join(p.capitalize() for p in parts) + "."
    used.add(text)
    return text


def _gradient(size, c0, c1, vertical: bool) -> Image.Image:
    w, h = size
    t = np.linspace(0, 1, h if vertical else w, dtype=np.float32)
    ramp = np.asarray(c0, np.float32)[None] * (1 - t[:, None]) + np.asarray(c1, np.float32)[None] * t[:, None]
    arr = np.repeat(ramp[:, None], w, 1) if vertical else np.repeat(ramp[None], h, 0)
    return Image.fromarray(np.clip(np.rint(arr), 0, 255).astype(np.uint8))


def render_document(seed: int, corrupt_fraction: float = 0.4):
    """One seeded document: (clean image, start image with errors, list[Placed]).

    Layout: 800 x 600 px; a title band (solid or horizontal gradient, dark) with a bold light
    title, left-aligned or centred; two columns (x 32..376 and 424..768) each stacking a bold
    heading, a wrapped paragraph, labels and a light-on-dark badge, with the lower part of
    each column left free; the page is light, flat or a vertical gradient.
    """
    rng = random.Random(seed)
    faces = {(f.family, f.bold, f.italic): f for f in installed_faces()}
    family = rng.choice(
        [
            f
            for f in ("DejaVu Serif", "DejaVu Sans", "Liberation Serif", "Liberation Sans")
            if (f, False, False) in faces
        ]
    )
    title_family = rng.choice([family, "DejaVu Serif" if "Sans" in family else "DejaVu Sans"])
    W, H = 800, 600
    page0 = tuple(rng.randint(238, 252) for _ in range(3))
    page = (
        _gradient((W, H), page0, tuple(max(0, c - rng.randint(10, 30)) for c in page0), True)
        if rng.random() < 0.4
        else Image.new("RGB", (W, H), page0)
    )
    band_c = tuple(rng.randint(20, 90) for _ in range(3))
    band_h = rng.randint(74, 92)
    if rng.random() < 0.5:
        page.paste(_gradient((W, band_h), band_c, tuple(min(255, c + 60) for c in band_c), False), (0, 0))
    else:
        ImageDraw.Draw(page).rectangle([0, 0, W, band_h], fill=band_c)
    ink = tuple(rng.randint(15, 50) for _ in range(3))
    badge_c = tuple(rng.randint(20, 120) for _ in range(3))
    used: set = set()
    strings: list[Placed] = []
    body = rng.choice([15, 16, 17, 18])
    tsize = rng.randint(28, 34)
    title = Placed(_phrase(rng, rng.randint(2, 3), used), "title", title_family, True, tsize, "top")
    strings.append(title)
    draw_ops = []  # (Placed, face, colour, x, baseline, align, width or None, badge)
    tface = faces[(title_family, True, False)]
    tw = tface.font(tsize).getlength(title.text)
    centred = rng.random() < 0.4
    draw_ops.append(
        (title, tface, (250, 250, 250), (W - tw) / 2 if centred else 32, band_h / 2 + tsize * 0.36, None, False)
    )
    for col, (x0, x1) in enumerate(((32, 376), (424, 768))):
        y = band_h + 34
        region = ("left", "right")[col]
        for role in rng.sample(["heading", "para", "label", "badge", "label"], 5):
            if role == "heading":
                p = Placed(_phrase(rng, rng.randint(2, 3), used), "heading", family, True, body + 4, region)
            elif role == "para":
                p = Placed(_sentence(rng, 2, used), "body", family, False, body, region)
            elif role == "label":
                p = Placed(_phrase(rng, rng.randint(2, 3), used), "label", family, False, body, region)
            else:
                p = Placed(_phrase(rng, rng.randint(1, 2), used), "badge", family, True, body, region)
            face = faces[(family, p.bold, False)]
            fnt = face.font(p.size)
            p.lines = wrap(p.text, fnt, x1 - x0) if role == "para" else [p.text]
            pitch = round(p.size * 1.35)
            height = pitch * len(p.lines) + (12 if role == "badge" else 0)
            if y + height > H - 150:
                continue
            draw_ops.append(
                (
                    p,
                    face,
                    (255, 255, 255) if role == "badge" else ink,
                    x0 + (12 if role == "badge" else 0),
                    y + (6 if role == "badge" else 0) + p.size * 0.8,
                    x1 - x0 if role == "para" else None,
                    role == "badge",
                )
            )
            strings.append(p)
            y += height + round(body * 1.1)
    # Errors: a seeded share of the strings of >= 4 characters (the title is never missing).
    eligible = [p for p in strings if len(p.text) >= 4]
    for p in rng.sample(eligible, round(corrupt_fraction * len(eligible))):
        p.corruption = rng.choice(KINDS[:3] if p.role == "title" else KINDS)
        p.rendered = corrupt(p.text, p.corruption, rng)
    for p in strings:
        if p.corruption is None:
            p.rendered = p.text
    clean, start = page.copy(), page.copy()
    for img, which in ((clean, "text"), (start, "rendered")):
        draw = ImageDraw.Draw(img)
        for p, face, colour, x, baseline, width, badge in draw_ops:
            text = getattr(p, which)
            fnt = face.font(p.size)
            rows = wrap(text, fnt, width) if width else ([text] if text else [])
            pitch = round(p.size * 1.35)
            if badge:
                bw = fnt.getlength(p.text) + 24
                draw.rounded_rectangle(
                    [x - 12, baseline - p.size * 0.8 - 6, x - 12 + bw, baseline - p.size * 0.8 + pitch + 6],
                    radius=8,
                    fill=badge_c,
                )
            for k, row in enumerate(rows):
                draw.text((x, baseline + k * pitch), row, font=fnt, fill=colour, anchor="ls")
            if which == "text":
                boxes = [
                    draw.textbbox((x, baseline + k * pitch), row, font=fnt, anchor="ls") for k, row in enumerate(rows)
                ]
                p.box = tuple(
                    int(v)
                    for v in (
                        min(b[0] for b in boxes),
                        min(b[1] for b in boxes),
                        max(b[2] for b in boxes),
                        max(b[3] for b in boxes),
                    )
                )
    return clean, start, strings


def make_item(seed: int, strings: list[Placed], image: Path) -> Item:
    """The rubric of a rendered document: one check per string, in its half of the page."""
    checks = tuple(
        Check(str(k), f'Does the page read exactly "{p.text}"?', expects=(TextExpectation(p.text, p.region),))
        for k, p in enumerate(strings)
    )
    return Item(f"doc{seed}", "a document", Rubric((Criterion("text", checks),)), image=image)


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
