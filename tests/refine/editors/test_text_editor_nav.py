"""Text editor (issue 32): a navigation menu's missing first or last link goes where the closed-up
row leaves its slot (``refine/editors/text/place_nav_item.py``); a link in between is inserted with the
links on the menu's free side moved back (``insert_nav_item.py``, tested in ``test_text_editor_insert.py``).

Pages are drawn here (PIL, DejaVu), laid out as a browser lays out a flex menu: one gap between
the links' advances, a right-aligned menu ending at the right text margin.
"""

import shutil

import numpy as np
import pytest
from PIL import Image, ImageDraw

from documents.fonts import installed_faces
from refine.editors.text import TextEditor
from refine.editors.text.place_nav_item import nav_place
from rewards.importers import expectations_of
from rewards.rubric import Check, Verdict
from rewards.text.ocr.ocr_read import ocr_lines
from rewards.text.questions.question_compiler import compile_question

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
FACES = {(f.family, f.bold, f.italic): f for f in installed_faces()}
SANS, SERIF_BOLD = FACES[("DejaVu Sans", False, False)], FACES[("DejaVu Serif", True, False)]
INK = (34, 34, 40)
GAP = 28


def header(links: list[str], right_set: bool) -> tuple[Image.Image, list[float]]:
    """A 900 x 360 page: the brand at the left margin (40 px), the menu's links 16 px with a
    ``GAP`` px gap between advances, ending at the right margin (``right_set``) or starting 200 px
    after the brand; a heading below. Returns the page and each link's pen x."""
    img = Image.new("RGB", (900, 360), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((40, 48), "Brightside", font=SERIF_BOLD.font(22), fill=INK, anchor="ls")
    fnt = SANS.font(16)
    widths = [fnt.getlength(t) for t in links]
    x = 860 - sum(widths) - GAP * (len(links) - 1) if right_set else 340
    xs = []
    for t, w in zip(links, widths):
        d.text((x, 46), t, font=fnt, fill=INK, anchor="ls")
        xs.append(x)
        x += w + GAP
    d.text((40, 180), "Ship reports, not spreadsheets", font=SERIF_BOLD.font(34), fill=INK, anchor="ls")
    return img, xs


def failed_check(question: str):
    spec = compile_question(question)
    chk = Check("1", question, expects=expectations_of(spec), spec=spec)
    return chk, [(chk, Verdict("1", "no", "ocr", ""))]


def test_nav_place_reads_the_ordinal_from_the_left():
    assert nav_place('Is the first link of the navigation menu from the left exactly "Home"?') == 1
    assert nav_place('Is the third link of the navigation menu from the left exactly "Blog"?') == 3
    assert nav_place('Is the first link of the navigation menu from the right exactly "Blog"?') is None
    assert nav_place('Is the first item under the "Highlights" heading exactly "Blog"?') is None


def test_missing_first_link_of_a_right_aligned_menu_goes_one_gap_left_of_the_first():
    img, xs = header(["Pricing", "Customers", "Careers"], right_set=True)
    chk, failures = failed_check('Is the first link of the navigation menu from the left exactly "Home"?')
    editor = TextEditor()
    out = editor.edit(img, "", failures, seed=0)
    [act] = editor.last_actions
    assert act["action"].startswith("place (link 1 of the menu")
    x0, y0, x1, y1 = act["box"]
    pricing_ink = SANS.font(16).getbbox("Pricing", anchor="ls")[0] + xs[0]
    assert abs((pricing_ink - x1) - GAP) <= 3  # one gap left of "Pricing"'s ink
    assert abs(y1 - 46) <= 1  # on the menu's baseline ("Home" has no descender)
    assert act["type"]["family"] == "DejaVu Sans" and abs(act["type"]["size"] - 16) <= 1
    changed = (np.asarray(img) != np.asarray(out)).any(2)
    assert changed[y0:y1, x0:x1].any() and changed.sum() == changed[y0:y1, x0:x1].sum()
    top = sorted((wd.box[0], wd.text) for ln in ocr_lines(out) for wd in ln.words if wd.box[3] < 60)
    assert [t for _, t in top][-4:] == ["Home", "Pricing", "Customers", "Careers"]


def test_link_past_the_menus_end_is_skipped_and_the_page_unchanged():
    img, _ = header(["Home", "Customers", "Careers"], right_set=False)
    for question, reason in (
        ('Is the fifth link of the navigation menu from the left exactly "Blog"?', "past its end"),
    ):
        _, failures = failed_check(question)
        editor = TextEditor()
        out = editor.edit(img, "", failures, seed=0)
        [act] = editor.last_actions
        assert act["action"].startswith("skip") and reason in act["action"]
        assert np.array_equal(np.asarray(out), np.asarray(img))
    _, failures = failed_check('Is the fourth link of the navigation menu from the left exactly "Blog"?')
    editor = TextEditor()
    out = editor.edit(img, "", failures, seed=0)
    [act] = editor.last_actions
    assert act["action"].startswith("place (link 4 of the menu")
    top = sorted((wd.box[0], wd.text) for ln in ocr_lines(out) for wd in ln.words if wd.box[3] < 60)
    assert [t for _, t in top][-4:] == ["Home", "Customers", "Careers", "Blog"]


def test_a_missing_first_link_is_set_at_the_width_the_page_gives_its_links():
    """matplotlib (Agg) draws the menu: its links a pixel or two narrower than FreeType sets them
    at their size. The missing first link, set in its neighbour's type at the neighbour's width
    on the page, ends one gap left of it and starts no further left than Agg draws it."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(9, 3.6), dpi=100, facecolor="white")
    fig.text(40 / 900, 1 - 48 / 360, "Brightside", fontsize=16, fontweight="bold", family="DejaVu Serif")
    fig.text(40 / 900, 1 - 180 / 360, "Ship reports, not spreadsheets", fontsize=24, fontweight="bold")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()

    def place(text, right):  # a link ending at x = right (px), on the menu's baseline; its box
        t = fig.text(right / 900, 1 - 46 / 360, text, fontsize=12.5, family="DejaVu Sans", ha="right", va="baseline")
        e = t.get_window_extent(renderer)
        return t, (e.x0, e.x1)

    right, spans = 860.0, {}
    for link in ("Careers", "Customers", "Pricing", "Features"):
        t, spans[link] = place(link, right)
        right = spans[link][0] - GAP
        if link == "Features":
            t.remove()  # drawn only for its box: the link the page lacks
    buf = io.BytesIO()
    fig.savefig(buf, format="png", facecolor="white")
    plt.close(fig)
    img = Image.open(buf).convert("RGB")
    _, failures = failed_check('Is the first link of the navigation menu from the left exactly "Features"?')
    editor = TextEditor()
    editor.edit(img, "", failures, seed=0)
    [act] = editor.last_actions
    assert act["action"].startswith("place (link 1 of the menu"), act["action"]
    start, end = spans["Features"]
    # inside the engine's box of the link (its columns floored and ceiled outward, as its truth)
    assert act["box"][0] >= int(start) and act["box"][2] <= int(end) + 1, (act["box"], start, end)
