"""The look-alike glyph check (``rewards.text.ocr.lookalikes.check_word``) on words drawn correctly
and drawn with a look-alike (a capital O for a zero, a lower-case l for a one, ...).

    python benchmarks/lookalike_check.py

Each pair (expected word, look-alike drawing) is drawn in every reference font of
``rewards.text.ocr.lookalikes.FONTS`` and in six fonts that are not among them (oblique, condensed,
extra light, narrow, italic, condensed bold serif), at 14, 22 and 34 px, and checked against the
expected word on its exact ink box. Printed per font set: correct drawings confirmed (the "yes"
kept), look-alike drawings confirmed (a false "yes"; before the check every one was), and the
milliseconds per word.
"""

from __future__ import annotations

import time

from PIL import Image, ImageDraw, ImageFont

from rewards.text.ocr.lookalikes import FONTS, check_word

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


def run(fonts: list[str]) -> tuple[int, int, int, float]:
    """(correct confirmed, look-alikes confirmed, drawings of each kind, ms per word)."""
    kept = false_yes = n = 0
    t0 = time.perf_counter()
    for path in fonts:
        for size in (14, 22, 34):
            font = ImageFont.truetype(path, size)
            for expected, drawn in PAIRS:
                for text in (expected, drawn):
                    image = Image.new("RGB", (size * 12, size * 3), "white")
                    draw = ImageDraw.Draw(image)
                    draw.text((size, size), text, font=font, fill=(30, 30, 30))
                    outcome = check_word(image, draw.textbbox((size, size), text, font=font), expected).outcome
                    kept += text == expected and outcome == "confirmed"
                    false_yes += text != expected and outcome == "confirmed"
                n += 1
    return kept, false_yes, n, (time.perf_counter() - t0) / (2 * n) * 1000


def main() -> None:
    for name, fonts in (("reference fonts", list(FONTS)), ("other fonts", HELD_OUT)):
        kept, false_yes, n, ms = run(fonts)
        print(f"{name}: correct confirmed {kept} of {n}, look-alikes confirmed {false_yes} of {n}, {ms:.1f} ms/word")


if __name__ == "__main__":
    main()
