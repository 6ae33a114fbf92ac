"""Check the bundled example's refine output with a second, independent OCR engine.

Usage: ``python scripts/verify_example.py --out <refine output dir> [--engine rapidocr|tesseract]``

For every item of ``refine/example/manifest.json`` it reads ``<out>/<item_id>/best.png`` (the
refine loop's best iteration) and the start image, and reports from the manifest:

- injected errors fixed / total: corrupted strings that the second engine finds in best.png;
- correct strings broken / total: strings rendered correctly that the second engine finds in the
  start image but not in best.png (so the engine's own misreads are not counted as breakage).

Engine: RapidOCR (``rapidocr-onnxruntime``, PP-OCRv4 ONNX weights inside the wheel), a different
engine from the judge's tesseract. With ``--engine tesseract`` (when rapidocr is not installed)
it is tesseract with other settings (psm 3, no upsampling), which is *not* independent of the
judge. Matching uses :mod:`rewards.text_match` (exact, case-sensitive, regions ignored).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from PIL import Image

from rewards.text_match import Line, Word, find_matches

EXAMPLE = Path(__file__).resolve().parents[1] / "refine" / "example"


def rapidocr_reader():
    """A function image -> list[Line] backed by RapidOCR (one line per detected text box)."""
    import numpy as np
    from rapidocr_onnxruntime import RapidOCR

    engine = RapidOCR()

    def read(image: Image.Image) -> list[Line]:
        result, _ = engine(np.asarray(image.convert("RGB"))[:, :, ::-1])  # RapidOCR expects BGR
        lines = []
        for points, text, _score in result or []:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            lines.append(Line((Word(text, (int(min(xs)), int(min(ys)), int(max(xs)), int(max(ys)))),)))
        return lines

    return read


def tesseract_reader():
    """A function image -> list[Line]: tesseract psm 3 without upsampling (not independent)."""
    from rewards.judges.ocr import ocr_lines

    return lambda image: ocr_lines(image, psm=3, scale=1.0)


def found(text: str, lines: list[Line], size: tuple[int, int], ignore_spaces: bool = False) -> bool:
    """True when ``text`` is read exactly (text_match rules, any region); with ``ignore_spaces``
    also when it is read with the spaces of both sides dropped, one line at a time (RapidOCR drops
    some: "CHOOSE TOBEFREE")."""
    ms = find_matches(text, lines, size[0], size[1])
    if ms and ms[0].found:
        return True
    if ignore_spaces:
        squeezed = [Line((Word(ln.text.replace(" ", ""), ln.box),)) for ln in lines]
        ms = find_matches(text.replace(" ", ""), squeezed, size[0], size[1], max_lines=1)
        return bool(ms) and ms[0].found
    return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="refine output dir holding <item_id>/best.png")
    ap.add_argument("--manifest", type=Path, default=EXAMPLE / "manifest.json")
    ap.add_argument("--engine", choices=("rapidocr", "tesseract"), default="rapidocr")
    ap.add_argument("--json", type=Path, default=None, help="also write the report here")
    ap.add_argument("--ignore-spaces", action="store_true",
                    help="compare without spaces (the engine's dropped spaces are not counted as errors)")
    args = ap.parse_args(argv)
    if not args.out.is_dir():
        print(f"{args.out}: not a refine output folder", file=sys.stderr)
        return 2
    try:
        manifest = json.loads(args.manifest.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        print(f"{args.manifest}: cannot read manifest ({e})", file=sys.stderr)
        return 2
    try:
        read = rapidocr_reader() if args.engine == "rapidocr" else tesseract_reader()
    except ImportError:
        print("rapidocr-onnxruntime is not installed: .venv/bin/pip install -e .[verify], or rerun with "
              "--engine tesseract (not independent of the judge)", file=sys.stderr)
        return 2
    report = {"engine": args.engine, "items": {}}
    fixed = errors = broken = correct = 0
    for entry in manifest["items"]:
        best = args.out / entry["id"] / "best.png"
        if not best.exists():
            print(f"{best}: missing (item {entry['id']} skipped)", file=sys.stderr)
            continue
        start_img = Image.open(args.manifest.parent / entry["image"])
        best_img = Image.open(best)
        start_lines, best_lines = read(start_img), read(best_img)
        row = {"fixed": 0, "errors": 0, "broken": 0, "correct": 0, "unfixed": [], "broken_strings": []}
        for s in entry["strings"]:
            after = found(s["text"], best_lines, best_img.size, args.ignore_spaces)
            if s["corrupted"]:
                row["errors"] += 1
                row["fixed"] += after
                if not after:
                    row["unfixed"].append(s["text"])
            elif found(s["text"], start_lines, start_img.size, args.ignore_spaces):
                row["correct"] += 1
                if not after:
                    row["broken"] += 1
                    row["broken_strings"].append(s["text"])
        report["items"][entry["id"]] = row
        fixed, errors = fixed + row["fixed"], errors + row["errors"]
        broken, correct = broken + row["broken"], correct + row["correct"]
        print(f"item {entry['id']}: fixed {row['fixed']}/{row['errors']}, broken {row['broken']}/{row['correct']}")
    report.update(fixed=fixed, errors=errors, broken=broken, correct=correct)
    print(f"[{args.engine}{', spaces ignored' if args.ignore_spaces else ''}] injected errors fixed: {fixed}/{errors}; correct strings broken: {broken}/{correct}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
