"""A ninth tester's pages (``benchmarks/fresh9_pages.py``; issue 32): edits a person would reject,
fixed or as strict xfails naming the cause."""

import shutil

import matplotlib
import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from refine.editors.text import TextEditor  # noqa: E402
from rewards.text.ocr.rotated import find_rotated_text, paper_level  # noqa: E402

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")


def area(ylabel: str) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """940x560 (fresh9-area_top-0): a stacked area chart whose four fills cover more than half the
    page (45% of it stays white), its y-axis title ``ylabel`` (Liberation Sans Narrow 15, rotated
    90 by matplotlib) left of the tick labels; and the title's box as matplotlib sets it."""
    data = np.array(
        [[20, 19, 20, 18, 6, 6], [20, 16, 7, 9, 13, 12], [14, 14, 12, 27, 16, 27], [14, 19, 22, 17, 22, 18]]
    )
    with plt.style.context("seaborn-v0_8-whitegrid"), plt.rc_context({"font.family": "Liberation Sans Narrow"}):
        fig, ax = plt.subplots(figsize=(9.4, 5.6), dpi=100)
        ax.stackplot(np.arange(6), data, colors=["#f4a261", "#2a9d8f", "#264653", "#e9c46a"], alpha=0.9)
        ax.set_xlim(0, 5)
        label = ax.set_ylabel(ylabel, fontsize=15)
        ax.tick_params(labelsize=14)
        fig.subplots_adjust(left=0.08, right=0.97, bottom=0.14, top=0.82)
        fig.canvas.draw()
        b = label.get_window_extent(fig.canvas.get_renderer())
        h = fig.canvas.get_width_height()[1]
        img = Image.fromarray(np.asarray(fig.canvas.buffer_rgba())[..., :3].copy())
    plt.close(fig)
    return img, (int(b.x0), int(h - b.y1), int(np.ceil(b.x1)), int(np.ceil(h - b.y0)))


def test_a_y_axis_title_beside_fills_that_cover_most_of_the_page_is_a_rotated_column():
    """The rotated pass took the page's median luminance for the paper: on this chart it is a
    fill's (202), every white pixel was ink, and the y-axis title was no column, so tesseract's own
    level reading of it (tall words) stood as a level line and the editor rewrote it level, 70 px
    tall, across the plot. The paper is the most common level (``rotated.paper_level``)."""
    img, (x0, y0, x1, y1) = area("Terawatt hour")
    gray = np.asarray(img.convert("L")).astype(np.int16)
    assert np.median(gray) < 230 and paper_level(gray) >= 250
    (col,) = [c for c in find_rotated_text(img, []) if c.box[0] < x1 and c.box[2] > x0]
    assert col.box[0] <= x0 + 2 and col.box[2] >= x1 - 2 and col.box[1] <= y0 + 2 and col.box[3] >= y1 - 2, (
        col.box,
        y0,
        y1,
    )


@needs_tesseract
def test_a_misspelt_y_axis_title_beside_fills_is_rewritten_rotated_in_its_place():
    """fresh9-area_top-0: "Terawatt hour" for "Terawatt hours". The title is rewritten rotated, and
    nothing changes right of its band (the tick labels and the plot)."""
    start, (x0, y0, x1, y1) = area("Terawatt hour")
    editor = TextEditor()
    out = editor.edit(start, "", failed('Does the y-axis title read exactly "Terawatt hours"?'), 0)
    (act,) = [a for a in editor.last_actions if a["text"] == "Terawatt hours"]
    assert "rotated 90" in act["action"], act["action"]
    bx0, by0, bx1, by1 = act["box"]
    assert bx1 - bx0 < by1 - by0 and bx0 >= x0 - 4 and bx1 <= x1 + 4, (act["box"], (x0, y0, x1, y1))
    a, b = np.asarray(out).astype(int), np.asarray(start).astype(int)
    assert not (a[:, x1 + 4 :] != b[:, x1 + 4 :]).any()


def roadmap(texts: dict, path) -> tuple[Image.Image, dict]:
    """fresh9-roadmap-5 drawn by Chromium (``benchmarks/fresh9_pages.py``: a timeline rule with four
    quarter badges "Q1 2026" .. "Q4 2026", white DejaVu Sans 13 on blue pills, and milestone cards)
    with ``texts`` (element id -> string; "" leaves it out): (image, element id -> box)."""
    from benchmarks.fresh9_pages import _render
    from documents.engines.browser import Browser

    with Browser() as browser:
        _, recs = _render("roadmap", 5, texts, path, browser)
    return Image.open(path).convert("RGB"), {r["eid"]: r["box"] for r in recs}


@needs_tesseract
@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed")
def test_a_missing_badge_does_not_overwrite_its_numbered_sibling(tmp_path):
    """fresh9-roadmap-5: the badge "Q4 2026" left out. Its near matches "Q1 2026" (read "Ql 2026"),
    "Q2 2026" and "Q3 2026" differ from it in one number and step evenly along the timeline: they
    are the series' other members (``near_match._series_siblings``), none is rewritten. (The empty
    pill Chromium draws is 18 px wide: no slot for the string, so it is skipped, not written loose.)"""
    start, boxes = roadmap({"q-3": ""}, tmp_path / "start.png")
    editor = TextEditor()
    out = editor.edit(start, "", failed('Is there a badge reading exactly "Q4 2026"?'), 0)
    a, b = np.asarray(out).astype(int), np.asarray(start).astype(int)
    for eid in ("q-0", "q-1", "q-2"):
        x0, y0, x1, y1 = boxes[eid]
        assert not (a[y0 - 4 : y1 + 4, x0 - 4 : x1 + 4] != b[y0 - 4 : y1 + 4, x0 - 4 : x1 + 4]).any(), eid
    (act,) = editor.last_actions
    assert act["action"].startswith("skip: missing"), act["action"]


@needs_tesseract
@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed")
def test_the_one_badge_that_breaks_a_numbered_series_is_rewritten(tmp_path):
    """ "Q5 2026" drawn for "Q2 2026" between "Q1 2026" and "Q3 2026": with "2" in its place the
    series steps evenly, so it is the wrong version, rewritten in its pill; its siblings stay."""
    start, boxes = roadmap({"q-1": "Q5 2026"}, tmp_path / "start.png")
    editor = TextEditor()
    out = editor.edit(start, "", failed('Is there a badge reading exactly "Q2 2026"?'), 0)
    (act,) = editor.last_actions
    assert act["action"] == "replace" and act["was"] == "Q5 2026", act
    x0, y0, x1, y1 = boxes["q-1"]
    assert x0 - 4 <= act["box"][0] and act["box"][2] <= x1 + 4, (act["box"], boxes["q-1"])
    a, b = np.asarray(out).astype(int), np.asarray(start).astype(int)
    for eid in ("q-0", "q-2", "q-3"):
        x0, y0, x1, y1 = boxes[eid]
        assert not (a[y0 - 4 : y1 + 4, x0 - 4 : x1 + 4] != b[y0 - 4 : y1 + 4, x0 - 4 : x1 + 4]).any(), eid


@needs_tesseract
@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed")
def test_a_swapped_sidebar_item_is_rewritten_though_its_heading_copy_reads_right(tmp_path):
    """fresh9-news_sidebar-17: the sidebar lists the main column's headings; the exact string read
    there (another list) no longer counts as the item being on the page (``other_list``)."""
    from benchmarks.fresh9_pages import _render
    from documents.engines.browser import Browser

    with Browser() as browser:
        _, recs = _render("news_sidebar", 17, {"toc-0": "new A benefits portal"}, tmp_path / "start.png", browser)
    start = Image.open(tmp_path / "start.png").convert("RGB")
    editor = TextEditor()
    q = 'Is the first item under the "In this issue" heading exactly "A new benefits portal"?'
    editor.edit(start, "", failed(q), 0)
    x0, y0, x1, y1 = next(r["box"] for r in recs if r["eid"] == "toc-0")
    acts = [a for a in editor.last_actions if a["text"] == "A new benefits portal" and a.get("box")]
    assert any(x0 - 4 <= a["box"][0] and a["box"][2] <= x1 + 40 and a["action"].startswith("replace") for a in acts)


@needs_tesseract
@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed")
def test_a_wrong_price_is_not_fixed_by_rewriting_another_row_s_value(tmp_path):
    """fresh9-receipt-13: "3.70" drawn for the eggs' "3.90", read "70" (the monospace "3." dropped);
    the VAT line's correct "3.96" (one digit away) was rewritten as "3.90", a contradiction. The
    check names the cell by its row and column: a near match outside that cell is another cell
    (``near_match.locate``); the cell's one run of ink, against the column's edge, is its wrong
    value, rewritten there (``place_in_row_column`` with the row label, the header "EUR" no value
    of the column, the row's ground the receipt's paper, not the tan page around it)."""
    from benchmarks.fresh9_pages import _render
    from documents.engines.browser import Browser

    with Browser() as browser:
        _, recs = _render("receipt", 13, {"price-2": "3.70"}, tmp_path / "start.png", browser)
    start = Image.open(tmp_path / "start.png").convert("RGB")
    editor = TextEditor()
    out = editor.edit(start, "", failed("In the 'Free range eggs' row, does the 'EUR' cell read exactly \"3.90\"?"), 0)
    (act,) = editor.last_actions
    assert act["action"].startswith("replace (in the value column of its row: 'Free range eggs')"), act["action"]
    ex0, ey0, ex1, ey1 = next(r["box"] for r in recs if r["eid"] == "price-2")
    assert ex0 - 4 <= act["box"][0] and act["box"][2] <= ex1 + 2 and ey0 - 2 <= act["box"][1] <= ey1, act["box"]
    x0, y0, x1, y1 = next(r["box"] for r in recs if r["eid"] == "vat")
    a, b = np.asarray(out).astype(int), np.asarray(start).astype(int)
    assert not (a[y0:y1, x0:x1] != b[y0:y1, x0:x1]).any()  # the VAT line's "3.96" stays as drawn


def scatter_cbar(xlabel: str) -> Image.Image:
    """fresh9-scatter_cbar-1's layout: a scatter chart coloured by a colour bar right of it (the
    axes left of the page's centre), the x-axis title ``xlabel`` (DejaVu Sans 15) centred under
    the axes, nothing below it."""
    rng = np.random.default_rng(1)
    fig, ax = plt.subplots(figsize=(9.0, 6.0), dpi=100)
    pts = ax.scatter(rng.uniform(10, 60, 40), rng.uniform(5, 30, 40), c=rng.uniform(0, 1, 40), cmap="viridis")
    fig.colorbar(pts, ax=ax)
    ax.set_xlabel(xlabel, fontsize=15)
    fig.subplots_adjust(bottom=0.14)
    fig.canvas.draw()
    img = Image.fromarray(np.asarray(fig.canvas.buffer_rgba())[..., :3].copy())
    plt.close(fig)
    return img


def ink_span(img: Image.Image, y0: int, y1: int) -> tuple[int, int]:
    """First and last columns with dark ink in rows ``y0``..``y1``."""
    cols = np.flatnonzero((np.asarray(img.convert("L"))[y0:y1] < 128).any(0))
    return int(cols[0]), int(cols[-1])


@needs_tesseract
def test_a_rewritten_x_axis_title_stays_centred_under_its_axes():
    """The x-axis title has nothing below it: its rewrite kept its old left edge and ended 22 px
    right of where matplotlib sets the whole title (RapidOCR read it cut). It is centred as the
    axes above it are (``rewrite._centred_over_run_below``, looking up when nothing is below)."""
    start, clean = scatter_cbar("Diameter at breast height"), scatter_cbar("Diameter at breast height (cm)")
    editor = TextEditor()
    out = editor.edit(start, "", failed('Is the x-axis title exactly "Diameter at breast height (cm)"?'), 0)
    (act,) = [a for a in editor.last_actions if a["text"] == "Diameter at breast height (cm)"]
    assert act["type"]["align"] == "centre", act
    (a0, a1), (b0, b1) = ink_span(out, 540, 600), ink_span(clean, 540, 600)
    assert abs((a0 + a1) / 2 - (b0 + b1) / 2) <= 3, ((a0, a1), (b0, b1))
