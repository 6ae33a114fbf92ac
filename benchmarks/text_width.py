"""How wide PIL sets a string, against how wide the layout engine set it (dev documents only).

The engine documents of the dev split (``documents.engines``, seeds 0..N-1) are drawn again from
their seeds, and every one-line text element's extent is read from the engine in fractional
pixels, with the face and size the engine used:

- Chromium: ``Range.getBoundingClientRect`` of the element's text (the sum of its advances, the
  pen's start to its end), the computed font family, size (px) and weight;
- matplotlib: ``Text.get_window_extent`` (the glyphs' control boxes, hinted at 8x across by Agg),
  the font file ``font_manager.findfont`` gives the text's properties, its size in px (pt x dpi / 72).

Each string is then measured by PIL in the same face and size under each candidate rule
(``CANDIDATES``) and the error (PIL minus engine, px) is tallied per engine, face and candidate:
mean and max |error| and the share within 0.5 px. The rule ``refine/editors/text/engine_advance.py``
applies was chosen from this table.

Usage::

    PYTHONPATH=$PWD .venv/bin/python benchmarks/text_width.py --n 24 [--engine chromium]
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from functools import lru_cache

import numpy as np
from PIL import ImageFont

from documents.fonts import FACE_FILES, FONT_DIRS

BIG = 64
"""Scale at which a string is set for its linear (unhinted) advances: hinting rounds at most a
1/64 px of each advance there."""


@lru_cache(maxsize=256)
def _font(path: str, size: float, engine: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size, layout_engine=engine)


def _advance(path: str, size: float, text: str, engine: int, scale: int = 1) -> float:
    return _font(path, size * scale, engine).getlength(text) / scale


def _ink(path: str, size: float, text: str, engine: int, scale: int = 1) -> float:
    x0, _, x1, _ = _font(path, size * scale, engine).getbbox(text, anchor="ls")
    return (x1 - x0) / scale


B, R = ImageFont.Layout.BASIC, ImageFont.Layout.RAQM
CANDIDATES = {
    "basic advance": lambda p, s, t: _advance(p, s, t, B),
    "raqm advance (editor today)": lambda p, s, t: _advance(p, s, t, R),
    "raqm advance, size to 1/4 px": lambda p, s, t: _advance(p, round(s * 4) / 4, t, R),
    "linear advance, basic (no kern)": lambda p, s, t: _advance(p, s, t, B, BIG),
    "linear advance, raqm (kerned)": lambda p, s, t: _advance(p, s, t, R, BIG),
    "raqm ink box": lambda p, s, t: _ink(p, s, t, R),
    "linear ink box, raqm": lambda p, s, t: _ink(p, s, t, R, BIG),
}
"""Width rules (face file, size px, text) -> px."""


def _face_file(family: str, bold: bool, italic: bool) -> str | None:
    name = FACE_FILES.get((family, bold, italic))
    for folder in FONT_DIRS:
        if name and (folder / name).is_file():
            return str(folder / name)
    return None


def chromium_samples(n: int) -> list[tuple[str, str, float, str, float]]:
    """(face label, file, size px, text, engine width px) of every one-line element of the dev
    Chromium pages ``0..n-1``, clean variant."""
    from documents.engines.browser import Browser
    from documents.engines.pages import SIZES, page_content, page_html
    from documents.engines.split import ENGINE_OFFSET, KINDS

    out = []
    with Browser() as browser:
        for seed in range(n):
            kind = KINDS["chromium"][seed % len(KINDS["chromium"])]
            specs, style = page_content(kind, random.Random(seed + ENGINE_OFFSET["chromium"]))
            w, h = SIZES[kind]
            _, records = browser.render(page_html(kind, specs, style), w, h)
            for r in records:
                family = r["font"].split(",")[0].strip().strip('"')
                bold = r["weight"] in ("bold", "700", "800", "900")
                path = _face_file(family, bold, False)
                if path is None or len(r["lines"]) != 1 or "\n" in r["text"] or not r["text"].strip():
                    continue
                label = f"{family}{' Bold' if bold else ''}"
                out.append((label, path, float(r["size"]), r["text"], r["box"][2] - r["box"][0]))
    return out


def matplotlib_samples(n: int) -> list[tuple[str, str, float, str, float]]:
    """(face label, file, size px, text, engine width px) of every unrotated text of the dev
    matplotlib charts ``0..n-1``, clean variant."""
    import matplotlib
    from matplotlib import font_manager

    from documents.engines import charts
    from documents.engines.split import ENGINE_OFFSET, KINDS

    out = []
    real = charts._truth

    def record(fig, renderer, *args):
        for t in fig.findobj(matplotlib.text.Text):
            text = t.get_text()
            if not t.get_visible() or not text.strip() or "\n" in text or round(t.get_rotation()) % 180:
                continue
            bb = matplotlib.text.Text.get_window_extent(t, renderer)
            props = t.get_fontproperties()
            path = font_manager.findfont(props)
            bold = props.get_weight() in ("bold", 700)
            label = f"{props.get_family()[0]}{' Bold' if bold else ''} -> {path.rsplit('/', 1)[-1]}"
            out.append((label, path, props.get_size_in_points() * fig.dpi / 72, text, bb.width))
        return real(fig, renderer, *args)

    charts._truth = record
    try:
        for seed in range(n):
            kind = KINDS["matplotlib"][seed % len(KINDS["matplotlib"])]
            specs, style = charts.chart_content(kind, random.Random(seed + ENGINE_OFFSET["matplotlib"]))
            charts.draw_chart(kind, specs, style)
    finally:
        charts._truth = real
    return out


def table(name: str, samples: list[tuple[str, str, float, str, float]]) -> None:
    """Print mean / max |error| (px) and the share within 0.5 px per candidate, for all of
    ``samples`` and per face."""
    errs: dict[tuple[str, str], list[float]] = defaultdict(list)
    for label, path, size, text, width in samples:
        for cand, rule in CANDIDATES.items():
            e = rule(path, size, text) - width
            errs[(cand, "all")].append(e)
            errs[(cand, label)].append(e)
    faces = sorted({s[0] for s in samples})
    print(f"\n{name}: {len(samples)} strings, sizes {sorted({round(s[2], 2) for s in samples})}")
    print(f"{'candidate':34s} {'face':44s} {'n':>4s} {'mean err':>8s} {'mean|e|':>8s} {'max|e|':>7s} {'<=0.5':>6s}")
    for cand in CANDIDATES:
        for face in ("all", *faces):
            e = np.array(errs[(cand, face)])
            a = np.abs(e)
            within = np.mean(a <= 0.5)
            print(f"{cand:34s} {face:44s} {len(e):4d} {e.mean():8.2f} {a.mean():8.2f} {a.max():7.2f} {within:6.0%}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=24, help="dev seeds 0..n-1 of each engine")
    ap.add_argument("--engine", choices=("chromium", "matplotlib", "both"), default="both")
    args = ap.parse_args()
    if args.engine in ("chromium", "both"):
        table("chromium (Range.getBoundingClientRect width)", chromium_samples(args.n))
    if args.engine in ("matplotlib", "both"):
        table("matplotlib (Text.get_window_extent width)", matplotlib_samples(args.n))


if __name__ == "__main__":
    main()
