"""The OCR-recall benchmark's documents (``benchmarks/ocr_recall.py``): seeded pages (slide,
poster, webpage or chart-like) whose unique strings are of known kind and place: a title band
(light text on a dark band), body lines, small text (7-12 px footnotes), badges (light digits or
labels on small dark pills), buttons (white or dark text on saturated fills), and a dark side
panel with light lines. ``Doc(seed).render()`` draws one; ``Doc.truth`` is (kind, text, box) per
drawn string.
"""

from __future__ import annotations

import random

from PIL import Image, ImageDraw, ImageFont

from documents.drawing import luminance
from documents.fonts import dejavu

FONTS = {
    "sans": "DejaVuSans.ttf",
    "sans_bold": "DejaVuSans-Bold.ttf",
    "serif": "DejaVuSerif.ttf",
    "serif_bold": "DejaVuSerif-Bold.ttf",
}
WORDS = (
    "Revenue Growth Market Share Pipeline Forecast Budget Customer Churn Margin Sales Region "
    "North South Europe Asia Quarter Annual Target Launch Roadmap Strategy Product Platform Users "
    "Retention Cost Savings Digital Cloud Security Partner Network Support Training Quality Risk "
    "Review Summary Outlook Highlights Agenda Timeline Milestone Delivery Service Operations Team"
).split()
LABELS = ("NEW", "HOT", "SALE", "TOP", "BETA", "PRO", "LIVE", "FREE", "KPI", "Q1", "Q2", "Q3", "Q4", "VIP")
BUTTONS = ("Sign up", "Learn more", "Buy now", "Contact", "Download", "Subscribe", "Get started", "Book demo")
DARK = ((28, 45, 82), (30, 90, 80), (110, 30, 40), (40, 40, 40), (60, 40, 110), (0, 70, 120), (90, 60, 20))
SATURATED = ((230, 110, 60), (200, 70, 50), (0, 150, 136), (255, 193, 7), (33, 150, 243), (156, 39, 176), (76, 175, 80))
PAGES = ((250, 250, 247), (243, 236, 220), (255, 255, 255), (248, 248, 252), (252, 247, 240))
SIZES = ((1024, 768), (1024, 576), (768, 1024), (896, 896))


def _font(name: str, size: int) -> ImageFont.FreeTypeFont:
    """The DejaVu face ``name`` (a key of ``FONTS``) at ``size`` pixels."""
    return dejavu(FONTS[name], size)


class Doc:
    """One rendered page and its ground truth: (kind, text, box) per drawn string."""

    def __init__(self, seed: int):
        self.rng = rng = random.Random(seed)
        self.size = rng.choice(SIZES)
        self.page = rng.choice(PAGES)
        self.image = Image.new("RGB", self.size, self.page)
        self.draw = ImageDraw.Draw(self.image)
        self.truth: list[tuple[str, str, tuple[int, int, int, int]]] = []
        self.used: set[str] = set()
        self.taken: list[tuple[int, int, int, int]] = []

    def unique(self, make) -> str:
        """A string from ``make()`` that neither holds nor sits inside one drawn before (100 tries;
        RuntimeError after)."""
        for _ in range(100):
            s = make()
            if s not in self.used and not any(s in u or u in s for u in self.used):
                self.used.add(s)
                return s
        raise RuntimeError("no unique string")

    def phrase(self, n: int) -> str:
        """A unique phrase of ``n`` seeded words."""
        return self.unique(lambda: " ".join(self.rng.choice(WORDS) for _ in range(n)))

    def free(self, box) -> bool:
        """Whether ``box`` lies on the page and keeps 6 px from every box taken."""
        x0, y0, x1, y1 = box
        w, h = self.size
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
            return False
        return not any(min(x1, b[2]) + 6 > max(x0, b[0]) and min(y1, b[3]) + 6 > max(y0, b[1]) for b in self.taken)

    def place(self, w: int, h: int, area=None):
        """A free box of w x h pixels inside ``area`` (default the page), or None."""
        ax0, ay0, ax1, ay1 = area or (20, 20, self.size[0] - 20, self.size[1] - 20)
        for _ in range(200):
            x = self.rng.randint(ax0, max(ax0, ax1 - w))
            y = self.rng.randint(ay0, max(ay0, ay1 - h))
            if self.free((x, y, x + w, y + h)):
                return x, y
        return None

    def text(self, kind: str, s: str, xy, fnt, color) -> None:
        """Draw ``s`` at ``xy`` (top left, pixels) and record (kind, text, ink box) in ``truth``."""
        self.draw.text(xy, s, font=fnt, fill=color)
        self.truth.append((kind, s, tuple(int(v) for v in self.draw.textbbox(xy, s, font=fnt))))

    def render(self) -> "Doc":
        """Draw the page (title band, side panel, body lines, badges, buttons, small text); returns self."""
        rng, (w, h) = self.rng, self.size
        serif = rng.random() < 0.4
        regular, bold = ("serif", "serif_bold") if serif else ("sans", "sans_bold")
        ink = rng.choice(((33, 33, 33), (25, 25, 40), (40, 30, 30)))
        # Title band: light text on a dark band across the top.
        band_h = rng.randint(70, 110)
        band = rng.choice(DARK)
        self.draw.rectangle((0, 0, w, band_h), fill=band)
        self.taken.append((0, 0, w, band_h))
        fnt = _font(bold, rng.randint(26, 38))
        self.text("title_band", self.phrase(rng.randint(2, 3)), (28, (band_h - fnt.size) // 2), fnt, (250, 250, 250))
        # A dark side panel with light lines.
        if rng.random() < 0.6:
            pw = rng.randint(220, 300)
            px0 = rng.choice((0, w - pw))
            panel = (px0, band_h, px0 + pw, min(h, band_h + rng.randint(220, 360)))
            self.draw.rectangle(panel, fill=rng.choice(DARK))
            self.taken.append(panel)
            y = panel[1] + 24
            for _ in range(rng.randint(2, 4)):
                fnt = _font(regular, rng.randint(15, 20))
                s = self.phrase(2)
                if y + fnt.size + 10 > panel[3]:
                    break
                self.text("panel_light", s, (px0 + 18, y), fnt, rng.choice(((255, 255, 255), (235, 235, 220))))
                y += int(fnt.size * 1.8)
        area = (20, band_h + 20, w - 20, h - 20)
        # Body lines.
        for _ in range(rng.randint(4, 7)):
            fnt = _font(regular, rng.randint(16, 24))
            s = self.phrase(rng.randint(1, 3))
            tw, th = int(fnt.getlength(s)) + 4, fnt.size + 6
            if xy := self.place(tw, th, area):
                self.taken.append((*xy, xy[0] + tw, xy[1] + th))
                self.text("body", s, xy, fnt, ink)
        # Badges: light digits or short labels on small dark pills.
        for _ in range(rng.randint(2, 5)):
            s = self.unique(
                lambda: rng.choice((f"{rng.randint(1, 99):02d}", rng.choice(LABELS), f"{rng.randint(10, 99)}%"))
            )
            fnt = _font(bold, rng.randint(14, 22))
            tw, th = int(fnt.getlength(s)), fnt.size
            pad = rng.randint(6, 12)
            if xy := self.place(tw + 2 * pad, th + 2 * pad, area):
                x, y = xy
                box = (x, y, x + tw + 2 * pad, y + th + 2 * pad)
                self.draw.rounded_rectangle(box, radius=rng.randint(3, (th + 2 * pad) // 2), fill=rng.choice(DARK))
                self.taken.append(box)
                self.text("badge", s, (x + pad, y + pad - fnt.size // 8), fnt, (255, 255, 255))
        # Buttons: white or dark text on saturated fills.
        for _ in range(rng.randint(1, 3)):
            s = self.unique(lambda: rng.choice(BUTTONS))
            fill = rng.choice(SATURATED)
            color = (20, 20, 20) if luminance(fill) > 150 else (255, 255, 255)
            fnt = _font(bold if rng.random() < 0.5 else regular, rng.randint(14, 20))
            tw, th = int(fnt.getlength(s)), fnt.size
            if xy := self.place(tw + 32, th + 20, area):
                x, y = xy
                box = (x, y, x + tw + 32, y + th + 20)
                self.draw.rounded_rectangle(box, radius=8, fill=fill)
                self.taken.append(box)
                self.text("button", s, (x + 16, y + 10 - fnt.size // 8), fnt, color)
        # Small text: footnotes and captions, 7-12 px, grey or ink.
        for _ in range(rng.randint(2, 4)):
            fnt = _font(regular, rng.randint(7, 12))
            s = self.phrase(rng.randint(2, 4))
            tw, th = int(fnt.getlength(s)) + 4, fnt.size + 4
            if xy := self.place(tw, th, area):
                self.taken.append((*xy, xy[0] + tw, xy[1] + th))
                self.text("small", s, xy, fnt, rng.choice((ink, (110, 110, 110))))
        return self
