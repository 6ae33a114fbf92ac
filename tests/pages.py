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
