"""Synthetic one-screen pages for the OCR judge and text editor tests."""

from PIL import Image, ImageDraw, ImageFont

SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"


def page(texts, size=(640, 360), bg=(250, 250, 250), band=None):
    """texts: list of (text, (x, y), px, rgb). band: (y0, y1, rgb) filled first."""
    img = Image.new("RGB", size, bg)
    d = ImageDraw.Draw(img)
    if band:
        d.rectangle([0, band[0], size[0], band[1]], fill=band[2])
    for text, xy, px, rgb in texts:
        d.text(xy, text, font=ImageFont.truetype(SERIF, px), fill=rgb)
    return img


def ocr_line(text: str, x: int, y: int, h: int = 12):
    """An OCR line of ``text`` (a ``rewards.text.ocr.text_match.Line``, confidence 95) whose first
    word starts at (x, y): 0.6 h per character, 0.5 h per space; for tests that give the OCR lines
    of a drawn page instead of running tesseract."""
    from rewards.text.ocr.text_match import Line, Word

    words, cx = [], x
    for t in text.split():
        w = round(0.6 * h * len(t))
        words.append(Word(t, (cx, y, cx + w, y + h), 95.0))
        cx += w + round(0.5 * h)
    return Line(tuple(words))
