"""OCR recall on rendered documents with badges, bands, buttons and small text: page passes only
vs page passes + fill pass (``rewards.text.ocr_read``), measured in the same run.

    python benchmarks/ocr_recall.py                 # dev seeds and report seeds, 12 documents each
    python benchmarks/ocr_recall.py --n 4 --split dev
    python benchmarks/ocr_recall.py --split example    # the bundled refine example's 8 pages

Each seeded document (slide, poster, webpage or chart-like page) carries unique strings of known
kind and place: a title band (light text on a dark band), body lines, small text (7-12 px
footnotes), badges (light digits or labels on small dark pills), buttons (white or dark text on
saturated fills), and a dark side panel with light lines. A string counts as read when
``rewards.text.text_match.find_matches`` finds it exactly (case-sensitive) with the match's box
centre inside the string's drawn box; words read that belong to no drawn string are counted
too (misreads and junk). Printed per split: recall per kind, overall recall and
The ``example`` split reads the bundled refine example's start images and counts the strings
its manifest says were drawn (``rendered``; a wrapped string is found across lines; no boxes
there, so anywhere on the page counts). Printed: seconds per image for both readers (wall clock,
and CPU seconds of this process plus its tesseract subprocesses, which a busy shared machine does
not inflate), and the ratios after / before. Tune on ``dev`` (seeds
0..n-1); ``report`` (seeds 1000..1000+n-1) is only measured.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from rewards.text.ocr_read import ocr_lines
from rewards.text.text_match import find_matches

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
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


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / FONTS[name]), size)


def luminance(c) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


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
        for _ in range(100):
            s = make()
            if s not in self.used and not any(s in u or u in s for u in self.used):
                self.used.add(s)
                return s
        raise RuntimeError("no unique string")

    def phrase(self, n: int) -> str:
        return self.unique(lambda: " ".join(self.rng.choice(WORDS) for _ in range(n)))

    def free(self, box) -> bool:
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
        self.draw.text(xy, s, font=fnt, fill=color)
        self.truth.append((kind, s, tuple(int(v) for v in self.draw.textbbox(xy, s, font=fnt))))

    def render(self) -> "Doc":
        rng, (w, h) = self.rng, self.size
        serif = rng.random() < 0.4
        regular, bold = ("serif", "serif_bold") if serif else ("sans", "sans_bold")
        ink = rng.choice(((33, 33, 33), (25, 25, 40), (40, 30, 30)))
        # Title band: light text on a dark band across the top.
        band_h = rng.randint(70, 110)
        band = rng.choice(DARK)
        self.draw.rectangle((0, 0, w, band_h), fill=band)
        self.taken.append((0, 0, w, band_h))
        fnt = font(bold, rng.randint(26, 38))
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
                fnt = font(regular, rng.randint(15, 20))
                s = self.phrase(2)
                if y + fnt.size + 10 > panel[3]:
                    break
                self.text("panel_light", s, (px0 + 18, y), fnt, rng.choice(((255, 255, 255), (235, 235, 220))))
                y += int(fnt.size * 1.8)
        area = (20, band_h + 20, w - 20, h - 20)
        # Body lines.
        for _ in range(rng.randint(4, 7)):
            fnt = font(regular, rng.randint(16, 24))
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
            fnt = font(bold, rng.randint(14, 22))
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
            fnt = font(bold if rng.random() < 0.5 else regular, rng.randint(14, 20))
            tw, th = int(fnt.getlength(s)), fnt.size
            if xy := self.place(tw + 32, th + 20, area):
                x, y = xy
                box = (x, y, x + tw + 32, y + th + 20)
                self.draw.rounded_rectangle(box, radius=8, fill=fill)
                self.taken.append(box)
                self.text("button", s, (x + 16, y + 10 - fnt.size // 8), fnt, color)
        # Small text: footnotes and captions, 7-12 px, grey or ink.
        for _ in range(rng.randint(2, 4)):
            fnt = font(regular, rng.randint(7, 12))
            s = self.phrase(rng.randint(2, 4))
            tw, th = int(fnt.getlength(s)) + 4, fnt.size + 4
            if xy := self.place(tw, th, area):
                self.taken.append((*xy, xy[0] + tw, xy[1] + th))
                self.text("small", s, xy, fnt, rng.choice((ink, (110, 110, 110))))
        return self


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
