"""OCR recall on rendered documents with badges, bands, buttons and small text: page passes only
vs page passes + fill pass (``rewards.text.ocr.ocr_read``), measured in the same run.

    python benchmarks/ocr_recall.py                 # dev seeds and report seeds, 12 documents each
    python benchmarks/ocr_recall.py --n 4 --split dev
    python benchmarks/ocr_recall.py --split example    # the bundled refine example's 8 pages

Each seeded document (``documents.ocr_pages``: slide, poster, webpage or chart-like page)
carries unique strings of known kind and place: a title band (light text on a dark band), body
lines, small text (7-12 px footnotes), badges (light digits or labels on small dark pills),
buttons (white or dark text on saturated fills), and a dark side panel with light lines. A
string counts as read when ``rewards.text.ocr.text_match.find_matches`` finds it exactly
(case-sensitive) with the match's box centre inside the string's drawn box; words read that
belong to no drawn string are counted too (misreads and junk). Printed per split: recall per
kind, overall recall and The ``example`` split reads the bundled refine example's start images
and counts the strings its manifest says were drawn (``rendered``; a wrapped string is found
across lines; no boxes there, so anywhere on the page counts). Printed: seconds per image for
both readers (wall clock, and CPU seconds of this process plus its tesseract subprocesses, which
a busy shared machine does not inflate), and the ratios after / before. Tune on ``dev`` (seeds
0..n-1); ``report`` (seeds 1000..1000+n-1) is only measured.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

from PIL import Image

from documents.ocr_pages import Doc
from rewards.text.ocr.ocr_read import ocr_lines
from rewards.text.ocr.text_match import find_matches


def read_ok(lines, doc: Doc, text: str, box) -> bool:
    for m in find_matches(text, lines, *doc.size):
        if m.found:
            cx, cy = (m.box[0] + m.box[2]) / 2, (m.box[1] + m.box[3]) / 2
            if box[0] - 4 <= cx <= box[2] + 4 and box[1] - 4 <= cy <= box[3] + 4:
                return True
    return False


def measure(seeds, readers) -> dict:
    """Per reader: {"hits": {kind: [read, total]}, "seconds": wall s, "cpu": CPU s, "images": n}."""
    stats = {name: {"hits": {}, "seconds": 0.0, "cpu": 0.0, "images": 0, "words": 0, "spurious": 0} for name in readers}
    for seed in seeds:
        doc = Doc(seed).render()
        for name, read in readers.items():
            t, c = time.perf_counter(), cpu_seconds()
            lines = read(doc.image)
            st = stats[name]
            st["seconds"] += time.perf_counter() - t
            st["cpu"] += cpu_seconds() - c
            st["images"] += 1
            tokens = {t for _, text, _ in doc.truth for t in text.split()}
            words = [w.text for line in lines for w in line.words]
            st["words"] += len(words)
            st["spurious"] += sum(w not in tokens for w in words)
            for kind, text, box in doc.truth:
                h = st["hits"].setdefault(kind, [0, 0])
                h[0] += read_ok(lines, doc, text, box)
                h[1] += 1
    return stats


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and its finished children (tesseract)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def measure_example(readers) -> dict:
    """Like ``measure`` on the bundled example: every non-empty rendered string is one target."""
    from refine.example.render import HERE

    manifest = json.loads((HERE / "manifest.json").read_text(encoding="utf-8"))
    stats = {name: {"hits": {}, "seconds": 0.0, "cpu": 0.0, "images": 0, "words": 0, "spurious": 0} for name in readers}
    for entry in manifest["items"]:
        image = Image.open(HERE / entry["image"]).convert("RGB")
        for name, read in readers.items():
            t, c = time.perf_counter(), cpu_seconds()
            lines = read(image)
            st = stats[name]
            st["seconds"] += time.perf_counter() - t
            st["cpu"] += cpu_seconds() - c
            st["images"] += 1
            tokens = {t for s in entry["strings"] for t in s["rendered"].split()}
            words = [w.text for line in lines for w in line.words]
            st["words"] += len(words)
            st["spurious"] += sum(w not in tokens for w in words)
            for s in entry["strings"]:
                if s["rendered"]:
                    h = st["hits"].setdefault(s.get("role") or "body", [0, 0])
                    h[0] += any(m.found for m in find_matches(s["rendered"], lines, *image.size))
                    h[1] += 1
    return stats


def recall(hits: dict, kind: str | None = None) -> float:
    pairs = [hits[kind]] if kind else list(hits.values())
    total = sum(t for _, t in pairs)
    return sum(r for r, _ in pairs) / total if total else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=12, help="documents per split")
    ap.add_argument("--split", choices=("dev", "report", "both", "example"), default="both")
    ap.add_argument("--save", type=Path, default=None, help="folder to save the rendered pages in")
    args = ap.parse_args()
    readers = {"before": lambda im: ocr_lines(im, fills=False), "after": lambda im: ocr_lines(im)}
    splits = {"dev": range(args.n), "report": range(1000, 1000 + args.n)}
    if args.split == "example":
        splits = {"example": None}
    for split, seeds in splits.items():
        if args.split not in (split, "both"):
            continue
        if args.save and seeds is not None:
            args.save.mkdir(parents=True, exist_ok=True)
            for s in seeds:
                Doc(s).render().image.save(args.save / f"{split}_{s}.png")
        stats = measure(seeds, readers) if seeds is not None else measure_example(readers)
        b, a = stats["before"], stats["after"]
        kinds = sorted(b["hits"])
        where = f"seeds {seeds.start}..{seeds.stop - 1}" if seeds is not None else "refine/example start images"
        print(f"\n[{split}] {where}, {b['images']} documents")
        print(f"{'kind':<14}{'strings':>8}{'before':>9}{'after':>9}")
        for k in kinds:
            print(f"{k:<14}{b['hits'][k][1]:>8}{recall(b['hits'], k):>9.3f}{recall(a['hits'], k):>9.3f}")
        rb, ra = recall(b["hits"]), recall(a["hits"])
        sb, sa = b["seconds"] / b["images"], a["seconds"] / a["images"]
        print(f"{'all':<14}{sum(t for _, t in b['hits'].values()):>8}{rb:>9.3f}{ra:>9.3f}")
        cb, ca = b["cpu"] / b["images"], a["cpu"] / a["images"]
        print(
            f"recall after/before {ra / rb:.3f}   words read that are in no drawn string:"
            f" before {b['spurious']}/{b['words']}, after {a['spurious']}/{a['words']}"
        )
        print(
            f"wall s/image before {sb:.2f} after {sa:.2f} (ratio {sa / sb:.2f});"
            f" CPU s/image before {cb:.2f} after {ca:.2f} (ratio {ca / cb:.2f})"
        )


if __name__ == "__main__":
    main()
