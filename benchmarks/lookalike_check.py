"""The look-alike glyph check (``rewards.text.ocr.lookalikes.check_in_line``: the glyph check,
then for small letter/digit look-alikes the comparison at the ink's own size) on words drawn
correctly and drawn with a look-alike (a capital O for a zero, a lower-case l for a one, ...).

    python benchmarks/lookalike_check.py

Each pair (expected word, look-alike drawing) is drawn by PIL in every reference font of
``rewards.text.ocr.lookalikes.FONTS`` and in six fonts that are not among them (oblique, condensed,
extra light, narrow, italic, condensed bold serif), at 14, 22 and 34 px, and checked against the
expected word on its exact ink box. Then small type as real engines draw it: each pair (and a
few more of the words source notes, menus and tables hold) in a line "Note: <word> today",
drawn by matplotlib and by PIL in the four faces of the engine documents, at 10, 12 and 14 px.
Printed per set: correct drawings confirmed (the "yes" kept), look-alike drawings confirmed (a
false "yes"; before the check every one was), by the glyph check alone and with the comparison
at the ink's own size, and the milliseconds per word.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rewards.text.ocr.lookalikes import FONTS, check_in_line  # noqa: E402
from rewards.text.ocr.text_match import Word  # noqa: E402

D = "/usr/share/fonts/truetype/"
HELD_OUT = [
    D + "dejavu/DejaVuSans-Oblique.ttf",
    D + "dejavu/DejaVuSansCondensed.ttf",
    D + "dejavu/DejaVuSans-ExtraLight.ttf",
    D + "liberation/LiberationSansNarrow-Regular.ttf",
    D + "liberation/LiberationSerif-Italic.ttf",
    D + "dejavu/DejaVuSerifCondensed-Bold.ttf",
]
PAIRS = [
    ("3.50", "3.5O"),
    ("100", "l00"),
    ("100", "I00"),
    ("58", "5B"),
    ("$1,250", "$l,250"),
    ("2018", "2O18"),
    ("Summer", "Surnmer"),
    ("Q1", "Ql"),
    ("B2B", "828"),
    ("S5", "SS"),
    ("Z0O", "ZOO"),
    ("1.5M", "l.5M"),
    ("Room", "Roorn"),
    ("Team 5", "Tearn 5"),
    ("85%", "B5%"),
]
SMALL_PAIRS = PAIRS + [
    ("2025", "2O25"),
    ("2025", "202S"),
    ("$7.00", "$7.0O"),
    ("+17%", "+l7%"),
    ("6,111", "6,1l1"),
    ("30%", "3O%"),
    ("Company", "Cornpany"),
    ("Terms", "Terrns"),
]
FACES = {
    "DejaVu Sans": D + "dejavu/DejaVuSans.ttf",
    "Liberation Sans": D + "liberation/LiberationSans-Regular.ttf",
    "DejaVu Serif": D + "dejavu/DejaVuSerif.ttf",
    "Liberation Serif": D + "liberation/LiberationSerif-Regular.ttf",
}
"""The faces of the engine-drawn documents (``documents.engines.vocab.FACES``) and their files."""


def _count(tally: list[int], expected: str, text: str, image, box, line_words=()) -> None:
    """Add one drawing's outcomes to ``tally`` (kept and false yes, glyph check alone, then with
    the comparison at the ink's own size)."""
    g, details = check_in_line(image, box, expected, None, line_words)
    alone = g.outcome == "confirmed" and details is None
    for k, ok in enumerate((alone, g.outcome == "confirmed")):
        tally[2 * k + (text != expected)] += ok


def run(fonts: list[str]) -> tuple[list[int], int, float]:
    """([kept, false yes] by the glyph check alone, then with the own-size comparison; drawings of
    each kind; ms per word), PIL drawings of the words alone at 14, 22 and 34 px."""
    tally, n = [0, 0, 0, 0], 0
    t0 = time.perf_counter()
    for path in fonts:
        for size in (14, 22, 34):
            font = ImageFont.truetype(path, size)
            for expected, drawn in PAIRS:
                for text in (expected, drawn):
                    image = Image.new("RGB", (size * 12, size * 3), "white")
                    draw = ImageDraw.Draw(image)
                    draw.text((size, size), text, font=font, fill=(30, 30, 30))
                    _count(tally, expected, text, image, draw.textbbox((size, size), text, font=font))
                n += 1
    return tally, n, (time.perf_counter() - t0) / (2 * n) * 1000


def _ink_box(image: Image.Image, box) -> tuple[int, int, int, int]:
    """The ink's box inside ``box`` (an OCR word's box is its ink's)."""
    g = np.asarray(image.convert("L").crop(box)).astype(int)
    ys, xs = np.nonzero(np.abs(g - np.median(g)) > 40)
    if len(ys) == 0:
        return tuple(box)
    return (box[0] + int(xs.min()), box[1] + int(ys.min()), box[0] + int(xs.max()), box[1] + int(ys.max()))


def _line_pil(parts: list[str], face: str, size: int) -> tuple[Image.Image, list]:
    font = ImageFont.truetype(FACES[face], size)
    image = Image.new("RGB", (600, 60), "white")
    draw, x, boxes = ImageDraw.Draw(image), 10, []
    for part in parts:
        draw.text((x, 20), part, font=font, fill="#333333")
        boxes.append(draw.textbbox((x, 20), part, font=font))
        x = boxes[-1][2] + size * 0.3
    return image, boxes


def _line_matplotlib(parts: list[str], face: str, size: int) -> tuple[Image.Image, list]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 0.6), dpi=100, facecolor="white")
    canvas = FigureCanvasAgg(fig)
    renderer, x, extents = canvas.get_renderer(), 10, []
    for part in parts:
        text = fig.text(x / 600, 0.4, part, fontfamily=face, fontsize=size * 0.72, color="#333333")
        extents.append(text.get_window_extent(renderer))
        x = extents[-1].x1 + size * 0.3
    canvas.draw()
    image = Image.fromarray(np.asarray(canvas.buffer_rgba())[..., :3].copy())
    h = image.height
    return image, [(int(e.x0), int(h - e.y1), int(np.ceil(e.x1)), int(np.ceil(h - e.y0))) for e in extents]


def run_small(draw_line) -> tuple[list[int], int, float]:
    """As :func:`run`, for small type in a line drawn by ``draw_line`` (PIL or matplotlib) in the
    engine faces at 10, 12 and 14 px; the other words of the line give the face."""
    tally, n = [0, 0, 0, 0], 0
    t0 = time.perf_counter()
    for face in FACES:
        for size in (10, 12, 14):
            for expected, drawn in SMALL_PAIRS:
                for text in (expected, drawn):
                    image, boxes = draw_line(["Note:", text, "today"], face, size)
                    ink = [_ink_box(image, b) for b in boxes]
                    others = [Word("Note:", ink[0]), Word("today", ink[2])]
                    _count(tally, expected, text, image, ink[1], others)
                n += 1
    return tally, n, (time.perf_counter() - t0) / (2 * n) * 1000


def main() -> None:
    sets = (
        ("reference fonts (PIL)", lambda: run(list(FONTS))),
        ("other fonts (PIL)", lambda: run(HELD_OUT)),
        ("small type in a line, PIL", lambda: run_small(_line_pil)),
        ("small type in a line, matplotlib", lambda: run_small(_line_matplotlib)),
    )
    for name, measure in sets:
        (kept, false_yes, kept2, false_yes2), n, ms = measure()
        print(
            f"{name}: correct confirmed {kept} -> {kept2} of {n}, look-alikes confirmed {false_yes} -> "
            f"{false_yes2} of {n} (glyph check alone -> with the own-size comparison), {ms:.1f} ms/word"
        )


if __name__ == "__main__":
    main()
