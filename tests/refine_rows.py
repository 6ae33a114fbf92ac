"""Small rubric rows with real start images, for tests that run ``rubricloop-refine`` on bad input.

Each image is a 360 x 80 white page with one black line of DejaVu Sans text (tesseract reads it
in a fraction of a second), and each row has one OCR-decidable check: "Does it read '<text>'?".
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

SCRIPT = Path(sys.executable).with_name("rubricloop-refine")
ENV = {**os.environ, "WANDB_MODE": "disabled"}
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
FAST_OCR = ("++judge.judges.0.second_psm=null", "++judge.judges.0.scale=1")  # one tesseract pass, no upsampling
FAST_EDIT = ("editor.second_psm=null", "editor.scale=1", "editor.look_harder=false")  # the text editor's, likewise


def text_page(text: str, size=(360, 80)) -> Image.Image:
    """Black ``text`` on a white RGB page (uint8)."""
    page = Image.new("RGB", size, "white")
    ImageDraw.Draw(page).text((16, 18), text, fill="black", font=ImageFont.truetype(FONT, 34))
    return page


def text_row(item_id: str, image: str, text: str, extra_checks=()) -> dict:
    """A RubricLoop row: one check that ``text`` is rendered, plus ``extra_checks`` (dicts)."""
    checks = [{"id": "t", "question": f"Does the page read '{text}'?", "expects": [{"text": text}]}, *extra_checks]
    return {
        "id": item_id,
        "prompt": f"a page that reads {text}",
        "image": image,
        "criteria": [{"name": "text", "checks": checks}],
    }


def write_rows(folder: Path, rows, name="data.jsonl") -> Path:
    """Write rows (dicts become JSON, bytes and str are written as they are) one per line."""
    lines = [r if isinstance(r, bytes) else (r if isinstance(r, str) else json.dumps(r)).encode() for r in rows]
    path = folder / name
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def good_rows(folder: Path, n: int, prefix="ok") -> list[dict]:
    """``n`` rows with readable start images saved under ``folder/images``."""
    (folder / "images").mkdir(exist_ok=True)
    words = ["Q3 Revenue", "Net Profit", "Team Goals", "Road Map", "Key Risks", "Next Steps", "Open Hires", "Cash Flow"]
    rows = []
    for k in range(n):
        text = words[k % len(words)]
        text_page(text).save(folder / "images" / f"{prefix}{k}.png")
        rows.append(text_row(f"{prefix}{k}", f"images/{prefix}{k}.png", text))
    return rows


def answers(out: Path, item_dir: str) -> list[str]:
    """The answers of ``<out>/<item_dir>/verdicts.jsonl`` in file order."""
    return [json.loads(line)["answer"] for line in (out / item_dir / "verdicts.jsonl").read_text().splitlines()]


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error: ")]


def same_pixels(a: Image.Image, b: Image.Image, tol: int = 0) -> bool:
    return a.size == b.size and int(np.abs(np.asarray(a, np.int16) - np.asarray(b, np.int16)).max()) <= tol
