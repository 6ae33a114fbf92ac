"""Text editor (issue 32): a bar's value label is fixed at its bar's end, a source line goes at the
page's foot, a separator mark OCR misreads is not retyped; and the engine benchmark's row joining.

The charts and pages are drawn here (PIL, DejaVu Serif, as matplotlib's serif charts), so each
assertion is against the truth of the drawing.
"""

import shutil

import numpy as np
import pytest
from PIL import Image, ImageDraw

from benchmarks.engine_refine import mask_of, rows_of
from documents.fonts import installed_faces
from refine.editors.text import TextEditor
from refine.editors.text.near_match import separators_only
from refine.editors.text.place_at_bar import find_bar
from refine.editors.text.work import bar_value
from rewards.importers import expectations_of
from rewards.rubric import Check, Verdict
from rewards.text.ocr.ocr_read import ocr_lines
from rewards.text.ocr.text_match import Line, Word
from rewards.text.questions.question_compiler import compile_question

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
FACES = {(f.family, f.bold, f.italic): f for f in installed_faces()}
SERIF = FACES[("DejaVu Serif", False, False)]
BG, BAR, INK = (246, 248, 252), (58, 12, 163), (0, 0, 0)


def check(cid: str, question: str) -> Check:
    spec = compile_question(question)
    return Check(cid, question, expects=expectations_of(spec), spec=spec)


def failed(*checks: Check):
    return [(c, Verdict(c.id, "no", "ocr", "")) for c in checks]


def best_overlap(a: np.ndarray, b: np.ndarray, shift: int) -> float:
    """The highest intersection over union of bool masks ``a`` and ``b`` with ``a`` shifted by up
    to ``shift`` pixels each way (the same glyphs set a pixel or two off)."""
    best = 0.0
    for dy in range(-shift, shift + 1):
        for dx in range(-shift, shift + 1):
            m = np.roll(np.roll(a, dy, 0), dx, 1)
            best = max(best, (m & b).sum() / max(1, (m | b).sum()))
    return best


def bar_chart(values: dict[str, str | None]) -> tuple[Image.Image, dict[str, tuple]]:
    """A horizontal bar chart: per category its tick label left of the axis, its bar, and its value
    label past the bar's end (None: not drawn). Returns the image and each category's bar box."""
    img = Image.new("RGB", (900, 120 + 110 * len(values)), BG)
    d = ImageDraw.Draw(img)
    fnt = SERIF.font(26)
    d.text((40, 50), "Average Basket Size", font=SERIF.font(34), fill=INK, anchor="ls")
    d.line([(150, 80), (150, 80 + 110 * len(values))], fill=INK, width=2)
    bars = {}
    for i, (cat, value) in enumerate(values.items()):
        cy = 130 + 110 * i
        d.text((140, cy), cat, font=fnt, fill=INK, anchor="rm")
        length = 200 + 90 * i
        box = (152, cy - 35, 152 + length, cy + 35)
        d.rectangle([box[0], box[1], box[2] - 1, box[3] - 1], fill=BAR)
        if value is not None:
            d.text((box[2] + 10, cy), value, font=fnt, fill=INK, anchor="lm")
        bars[cat] = box
    return img, bars


def test_find_bar_horizontal_and_vertical():
    img, bars = bar_chart({"Coffee": "53", "Juice": "45"})
    arr = np.asarray(img)
    tick = ImageDraw.Draw(img).textbbox((140, 130), "Coffee", font=SERIF.font(26), anchor="rm")
    bar = find_bar(arr, tuple(round(v) for v in tick))
    assert bar is not None and bar.orient == "h"
    assert bar.box == bars["Coffee"]
    # a vertical bar: the tick label under the axis, the bar standing on it
    v = Image.new("RGB", (400, 400), BG)
    d = ImageDraw.Draw(v)
    d.rectangle([150, 120, 229, 319], fill=BAR)
    d.line([(40, 320), (380, 320)], fill=INK, width=1)
    tb = d.textbbox((190, 330), "North", font=SERIF.font(24), anchor="mt")
    d.text((190, 330), "North", font=SERIF.font(24), fill=INK, anchor="mt")
    vb = find_bar(np.asarray(v), tuple(round(x) for x in tb))
    assert vb is not None and vb.orient == "v" and vb.box == (150, 120, 230, 320)
    # no bar by a label on an empty page
    e = Image.new("RGB", (400, 200), BG)
    ImageDraw.Draw(e).text((100, 100), "North", font=SERIF.font(24), fill=INK)
    assert find_bar(np.asarray(e), (100, 100, 170, 125)) is None


def test_bar_value_names_the_tick_and_the_number():
    c = check("q1", 'Is the value label at the end of the "Juice" bar "35"?')
    exp, tick = bar_value(c)
    assert (exp.text, tick) == ("35", "Juice")
    assert bar_value(check("q2", 'Does the y-axis title read exactly "Product line"?')) is None


def test_separators_only():
    assert separators_only("Made in Lisbon - Since 2014", "Made in Lisbon \u00b7 Since 2014", True)
    assert not separators_only("Made in Lisbon \u00b7 Since 2014", "Made in Lisbon \u00b7 Since 2014", True)
    assert separators_only(
        "2026 Northwind Inc. All rights reserved.", "\u00a9 2026 Northwind Inc. All rights reserved.", True
    )
    assert not separators_only("18.450", "18,450", True)
    assert not separators_only("2026 Northwind", "\u00a9 2025 Northwind", True)
    assert not separators_only("Next stess - 2", "Next steps \u00b7 2", True)


@needs_tesseract
def test_wrong_value_is_rewritten_at_its_bar_and_missing_one_written_there():
    img, bars = bar_chart({"Coffee": None, "Juice": "45", "Water": "72"})
    truth, _ = bar_chart({"Coffee": "53", "Juice": "35", "Water": "72"})
    swapped, _ = bar_chart({"Coffee": "35", "Juice": "53", "Water": "72"})
    editor = TextEditor()
    out = editor.edit(
        img,
        "",
        failed(
            check("q1", 'Is the value label at the end of the "Juice" bar "35"?'),
            check("q2", 'Is the value label at the end of the "Coffee" bar "53"?'),
        ),
        0,
    )
    acts = {a["text"]: a for a in editor.last_actions}
    assert acts["35"]["action"].startswith("replace") and acts["35"]["was"] == "45"  # replaced, not written beside
    assert acts["53"]["action"] == "place (at its bar's end)"
    for value, cat in (("35", "Juice"), ("53", "Coffee")):
        x0, y0, x1, y1 = acts[value]["box"]
        bar = bars[cat]
        assert 0 <= x0 - bar[2] <= 30  # just past the bar's end
        assert bar[1] <= (y0 + y1) / 2 <= bar[3]  # across the bar's middle
        assert acts[value]["type"]["family"] == "DejaVu Serif"  # the chart's own face
        # the ink matches the chart drawn with the right value (tesseract misreads lone digits)
        region = (slice(bar[1], bar[3]), slice(bar[2], bar[2] + 90))
        got, want, other = (np.asarray(im.convert("L"))[region] < 128 for im in (out, truth, swapped))
        assert abs(acts[value]["type"]["size"] - 26) <= 1.5
        assert best_overlap(got, want, 3) > 0.45
        assert best_overlap(got, want, 3) > best_overlap(got, other, 3) + 0.05, value  # its own digits
    # the other bars and labels are untouched: no pixel changed left of the bars' ends
    changed = (np.asarray(out) != np.asarray(img)).any(2)
    assert not changed[:, : bars["Coffee"][2]].any()


@needs_tesseract
def test_missing_source_line_goes_at_the_page_foot():
    img = Image.new("RGB", (900, 500), BG)
    d = ImageDraw.Draw(img)
    d.text((40, 60), "Quarterly Business Review", font=SERIF.font(34), fill=INK, anchor="ls")
    for i, line in enumerate(("Revenue grew faster than planned", "Support tickets resolved in a day")):
        d.text((40, 140 + 50 * i), line, font=SERIF.font(24), fill=INK, anchor="ls")
    chk = check("q1", 'Does the source note at the bottom read exactly "Source: Customer survey"?')
    editor = TextEditor()
    out = editor.edit(img, "", failed(chk), 0)
    action = editor.last_actions[0]
    assert action["action"] == "place (at the page's foot)"
    x0, y0, x1, y1 = action["box"]
    assert abs(x0 - 40) <= 3  # the page's left text edge
    # at the foot, a margin above the bottom edge (Chromium's footers end 15-27 px above it)
    assert 500 - y1 >= 14 and y0 > 250
    found = [ln.text for ln in ocr_lines(out) if "Source" in ln.text]
    assert found and "Customer survey" in found[0]
    changed = (np.asarray(out) != np.asarray(img)).any(2)
    assert not changed[~mask_of(changed.shape, [action["box"]], pad=1)].any()


@needs_tesseract
def test_source_line_of_a_page_whose_long_lines_are_bold_is_set_plain_at_the_tick_labels_scale():
    # The longest lines (a title, two line-end labels) are bold, the tick labels regular: the
    # source line is set in the regular face at 0.85 of the tick labels' size, as matplotlib's.
    sans, bold = FACES[("DejaVu Sans", False, False)], FACES[("DejaVu Sans", True, False)]
    img = Image.new("RGB", (900, 500), BG)
    d = ImageDraw.Draw(img)
    d.text((40, 60), "Tickets Closed per Week", font=bold.font(30), fill=INK, anchor="ls")
    for i, label in enumerate(("Enterprise accounts", "Small business accounts")):
        d.text((560, 180 + 60 * i), label, font=bold.font(16), fill=INK, anchor="ls")
    for i, tick in enumerate(("Jan", "Feb", "Mar", "Apr")):
        d.text((120 + 110 * i, 420), tick, font=sans.font(14), fill=INK, anchor="ms")
    chk = check("q1", 'Does the source note at the bottom read exactly "Source: Customer survey, March 2025"?')
    editor = TextEditor()
    out = editor.edit(img, "", failed(chk), 0)
    action = editor.last_actions[0]
    assert action["action"] == "place (at the page's foot)"
    assert action["type"]["family"] == "DejaVu Sans" and not action["type"]["bold"]
    assert abs(action["type"]["size"] - 0.85 * 14) <= 1.0
    found = [ln.text for ln in ocr_lines(out) if "Source" in ln.text]
    assert found and "Customer survey" in found[0]


def test_rows_of_joins_one_label_split_in_two():
    lines = [Line((Word("store", (60, 10, 100, 22)),)), Line((Word("Online", (0, 11, 55, 23)),)),
             Line((Word("Retail", (0, 40, 50, 52)),))]  # fmt: skip
    rows = rows_of(lines)
    assert [r.text for r in rows] == ["Online store", "Retail"]


def test_a_rewrite_spilling_over_its_neighbour_is_damage():
    from PIL import Image as _Image

    from refine.edit_audit import damaged

    start = np.full((60, 200, 3), 250, np.uint8)
    start[40:42, :] = 0  # a rule under the line
    best = start.copy()
    best[10:20, 20:60] = 0  # new ink inside the old words' box
    best[10:20, 60:90] = 0  # grown along its line onto empty page: the element grows, not damage
    best[38:44, 20:60] = 30  # over the rule below the line: damage
    rec = {"erased": [[20, 8, 60, 22]], "inked": [[20, 8, 90, 44]]}
    out = damaged(_Image.fromarray(start), _Image.fromarray(best), [rec])
    assert out["damaged_px"] == 6 * 40
    assert out["damage_boxes"][0] == [20, 38, 60, 44]
    # a placed string's own rows are its element
    placed = {"erased": [], "inked": [[20, 8, 90, 44]]}
    assert damaged(_Image.fromarray(start), _Image.fromarray(best), [placed])["damaged_px"] == 0


def test_upright_boxes_turn_back_to_the_page():
    from refine.editors.text.rewrite_rotated import from_upright, to_upright

    cw, ch = 40, 100
    box = (5, 30, 20, 90)  # a column of text in a 40 x 100 region
    for angle in (90, 270):
        up = to_upright(box, angle, cw, ch)
        assert up[2] - up[0] == box[3] - box[1] and up[3] - up[1] == box[2] - box[0]  # turned
        assert from_upright(up, angle, cw, ch) == box
    # the same region turned with numpy: the box's pixels land in the upright box
    region = np.zeros((ch, cw), bool)
    region[30:90, 5:20] = True
    up = np.rot90(region, -1)  # clockwise, as for text read bottom to top (90)
    x0, y0, x1, y1 = to_upright(box, 90, cw, ch)
    assert up[y0:y1, x0:x1].all() and up.sum() == (x1 - x0) * (y1 - y0)


@needs_tesseract
def test_a_rotated_axis_title_is_rewritten_rotated():
    from refine.editors.text.outcomes import Rewrite
    from refine.editors.text.rewrite_rotated import rewrite_rotated
    from refine.editors.text.state import EditState

    def title(text):
        flat = Image.new("RGB", (300, 40), BG)
        ImageDraw.Draw(flat).text((150, 20), text, font=SERIF.font(24), fill=INK, anchor="mm")
        page = Image.new("RGB", (200, 400), BG)
        page.paste(flat.rotate(90, expand=True), (40, 50))  # bottom to top, as matplotlib's y-axis title
        return page

    start, truth = title("per day"), title("Orders per day")
    arr = np.array(start)
    ink = np.argwhere((arr < 128).all(2))
    box = (int(ink[:, 1].min()), int(ink[:, 0].min()), int(ink[:, 1].max()) + 1, int(ink[:, 0].max()) + 1)
    words = (Word("per", (box[0], box[1] + 40, box[2], box[3])), Word("day", (box[0], box[1], box[2], box[1] + 38)))
    lines = [Line(words, 90)]
    from refine.editors.text.editor import TextEditor as _TE

    rules = _TE()._rules()
    state = EditState.read(arr, lines, {}, {})
    from rewards.rubric import TextExpectation
    from rewards.text.ocr.text_match import Match

    out = rewrite_rotated(state, Rewrite(Match("per day", box, 0.5, False, ((0, 0), (0, 1))), lines),
                          TextExpectation("Orders per day"), rules)  # fmt: skip
    assert out.action == "replace (rotated 90)"
    got, want = (np.asarray(im.convert("L")) < 128 for im in (Image.fromarray(state.arr), truth))
    assert best_overlap(got, want, 3) > 0.5  # the title as drawn rotated, not laid flat
    x0, y0, x1, y1 = out.box
    assert (y1 - y0) > 2 * (x1 - x0)  # a column, as the title was


def test_a_slice_value_is_not_placed_after_the_slice_name():
    from refine.editors.text.work import collect_work

    c = check("q1", 'Is the "Research" slice labeled with the percentage "31%"?')
    work = collect_work(failed(c), 2000)
    assert [e.text for e, _ in work.strings] == ["Research", "31%"]
    assert work.sequences == {}  # no neighbour slot beside "Research"
    lst = check("q2", 'Does the list read "Alpha" then "Beta"?')
    assert collect_work(failed(lst), 2000).sequences  # other checks keep theirs


@needs_tesseract
def test_a_price_is_rewritten_on_its_item_row_not_a_row_above():
    sans = FACES[("DejaVu Sans", False, False)]
    img = Image.new("RGB", (820, 260), BG)
    d = ImageDraw.Draw(img)
    for (x, y), text in (((60, 120), "Granola Bowl"), ((320, 120), "$24.25"), ((430, 160), "Fresh Lemonade"),
                         ((690, 160), "$31.25")):  # fmt: skip
        d.text((x, y), text, font=sans.font(22), fill=INK, anchor="ls")
    editor = TextEditor()
    editor.edit(img, "", failed(check("q1", 'Is the price of "Fresh Lemonade" exactly "$21.25"?')), 0)
    act = next(a for a in editor.last_actions if a["text"] == "$21.25")
    assert act["action"] == "replace" and act["was"] == "$31.25"
