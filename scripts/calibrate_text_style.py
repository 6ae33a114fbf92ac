"""Calibrate ``rewards.text.page.text_style``'s weight thresholds on rendered words (dev seeds only).

Renders words of the fidelity set's vocabulary (``documents.fidelity.vocab.VOCAB``) in every
installed face pair (DejaVu Sans/Serif, Liberation Sans/Serif, regular and bold) at 12-48 px,
dark on light and light on dark, with the seeds of the fidelity dev split, measures
``stroke_ratio`` on each word's ink box grown by a random 0-2 px (as OCR boxes are), and prints
the ratio's percentiles per weight and size band, the errors at the module's thresholds, and
the colour names measured for inks of known colour.

    python scripts/calibrate_text_style.py [--seeds 24]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from documents.fidelity import split_seeds
from documents.fidelity.vocab import VOCAB
from rewards.text.page import text_style as ts

FACES = {  # (regular, bold)
    "DejaVuSans": ("dejavu/DejaVuSans.ttf", "dejavu/DejaVuSans-Bold.ttf"),
    "DejaVuSerif": ("dejavu/DejaVuSerif.ttf", "dejavu/DejaVuSerif-Bold.ttf"),
    "LiberationSans": ("liberation/LiberationSans-Regular.ttf", "liberation/LiberationSans-Bold.ttf"),
    "LiberationSerif": ("liberation/LiberationSerif-Regular.ttf", "liberation/LiberationSerif-Bold.ttf"),
}
ROOT = Path("/usr/share/fonts/truetype")
INKS = {
    "white": (250, 250, 250),
    "black": (25, 25, 25),
    "gray": (128, 128, 128),
    "red": (200, 35, 30),
    "blue": (35, 70, 190),
    "green": (30, 135, 60),
    "orange": (230, 125, 25),
    "purple": (125, 45, 160),
}


def render_word(word: str, face: str, px: int, ink, bg) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """The word drawn at (20, 20) on a flat ``bg``: uint8 (H, W, 3) and its ink box (pixels)."""
    font = ImageFont.truetype(str(ROOT / face), px)
    img = Image.new("RGB", (int(font.getlength(word)) + 40, px * 2 + 40), bg)
    d = ImageDraw.Draw(img)
    d.text((20, 20), word, font=font, fill=ink)
    return np.asarray(img), d.textbbox((20, 20), word, font=font)


def samples(seeds: list[int]):
    """(face, bold, px, word, ink name, ratio, colour name) per rendered word."""
    words = sorted({w for v in VOCAB.values() for t in v["items"] + v["titles"] for w in t.split() if len(w) >= 2})
    for seed in seeds:
        rng = random.Random(seed)
        for face, pair in FACES.items():
            for bold in (False, True):
                for px in (12, 14, 17, 20, 24, 30, 36, 48):
                    word = rng.choice(words)
                    ink_name = rng.choice(list(INKS))
                    bg = (
                        (250, 250, 247)
                        if ink_name != "white"
                        else rng.choice([(25, 40, 90), (20, 80, 60), (200, 60, 40)])
                    )
                    arr, (x0, y0, x1, y1) = render_word(word, pair[bold], px, INKS[ink_name], bg)
                    g = [rng.randint(0, 2) for _ in range(4)]
                    ink = ts.ink_of(arr, (x0 - g[0], y0 - g[1], x1 + g[2], y1 + g[3]))
                    r = ts.stroke_ratio(ink, word) if ink else None
                    yield (
                        face,
                        bold,
                        px,
                        word,
                        ink_name,
                        (r[0] if r else None),
                        (ts.colour_name(ink.rgb) if ink else None),
                    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", type=int, default=24, help="dev seeds 0..n-1 (default 24)")
    args = p.parse_args()
    rows = list(samples(split_seeds("dev", args.seeds)))
    print(f"{len(rows)} words; thresholds regular <= {ts.REGULAR_RATIO}, bold >= {ts.BOLD_RATIO}")
    print(f"{'face':<16} {'weight':<8} {'px':>3} {'p5':>6} {'p50':>6} {'p95':>6} {'wrong':>5} {'unknown':>7}")
    for face in FACES:
        for bold in (False, True):
            for band in ((12, 14), (17, 20), (24, 30), (36, 48)):
                rs = [r for f, b, px, _, _, r, _ in rows if f == face and b == bold and band[0] <= px <= band[1]]
                known = np.array([r for r in rs if r is not None])
                names = [ts.weight_name(r) if r is not None else None for r in rs]
                wrong = sum(n == ("regular" if bold else "bold") for n in names)
                unknown = sum(n is None for n in names)
                q = np.percentile(known, [5, 50, 95]) if known.size else [np.nan] * 3
                print(
                    f"{face:<16} {'bold' if bold else 'regular':<8} {band[0]:>3}"
                    f" {q[0]:6.3f} {q[1]:6.3f} {q[2]:6.3f} {wrong:>5} {unknown:>7}"
                )
    reg = np.array([r for *_, r, _ in [(x[1], x[5], x[6]) for x in rows if not x[1]] if r is not None])
    bol = np.array([r for *_, r, _ in [(x[1], x[5], x[6]) for x in rows if x[1]] if r is not None])
    print(
        f"all sizes: regular p95 {np.percentile(reg, 95):.3f} max {reg.max():.3f};"
        f" bold p5 {np.percentile(bol, 5):.3f} min {bol.min():.3f}"
    )
    print("colour: measured name per ink (counts)")
    for name in INKS:
        got = [c for *_, ink, _, c in rows if ink == name]
        print(f"  {name:<7} " + ", ".join(f"{k}: {got.count(k)}" for k in sorted(set(got), key=str)))


if __name__ == "__main__":
    main()
