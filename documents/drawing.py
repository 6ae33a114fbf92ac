"""Drawing text and backgrounds: greedy word wrap, text turned 90 degrees, linear gradients, luminance."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont


def wrap(text: str, fnt: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Greedy word wrap of ``text`` to ``width`` pixels: a word goes on the current line while the
    line's advance (``fnt.getlength``) stays within ``width``; a single over-long word gets its own line."""
    lines, cur = [], ""
    for word in text.split():
        trial = f"{cur} {word}".strip()
        if cur and fnt.getlength(trial) > width:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    return lines + ([cur] if cur else [])


def rotated(text: str, font: ImageFont.FreeTypeFont, fill) -> Image.Image:
    """``text`` as an RGBA image turned 90 degrees counter-clockwise (it reads bottom to top),
    its ink box plus a 1 px transparent margin."""
    l, t, r, b = font.getbbox(text)
    im = Image.new("RGBA", (max(1, r - l + 2), max(1, b - t + 2)), (0, 0, 0, 0))
    ImageDraw.Draw(im).text((1 - l, 1 - t), text, font=font, fill=fill)
    return im.rotate(90, expand=True)


def gradient(size: tuple[int, int], c0, c1, vertical: bool) -> Image.Image:
    """An RGB image of ``size`` (w, h) pixels fading linearly from colour ``c0`` to ``c1``, top to
    bottom (``vertical``) or left to right; channels rounded to the nearest integer."""
    w, h = size
    t = np.linspace(0, 1, h if vertical else w, dtype=np.float32)
    ramp = np.asarray(c0, np.float32)[None] * (1 - t[:, None]) + np.asarray(c1, np.float32)[None] * t[:, None]
    arr = np.repeat(ramp[:, None], w, 1) if vertical else np.repeat(ramp[None], h, 0)
    return Image.fromarray(np.clip(np.rint(arr), 0, 255).astype(np.uint8))


def luminance(c) -> float:
    """ITU-R BT.601 luma of an RGB colour, 0..255."""
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
