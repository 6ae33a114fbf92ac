"""The element a question is about, found on rendered pages (needs the tesseract binary), and
"reads exactly" decided against it: a title and a decoy heading that contains the title's word,
bullets, a footer, KPI cards, legend swatches, axis titles (a rotated Line made by hand)."""

import shutil
from functools import lru_cache

import pytest
from PIL import Image, ImageDraw, ImageFont

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.ocr.text_match import Line, Word
from rewards.text.page.elements import describe_element, find_elements
from rewards.text.page.grounding import decide_text
from rewards.text.page.text_style import em_fraction
from rewards.text.questions.question_compiler import ElementSpec, QuestionSpec, TextSpec, compile_question

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
LIBERATION = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"


def font(px: int, path: str = SANS) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, px)


def menu(title: str) -> Image.Image:
    """800x600: a large title, a subtitle, a heading that contains "BREAKFAST", three bullets
    (drawn dots), a small footer."""
    img = Image.new("RGB", (800, 600), (252, 248, 240))
    d = ImageDraw.Draw(img)
    d.text((400, 60), title, font=font(56, BOLD), fill=(120, 30, 20), anchor="mm")
    d.text((400, 120), "Served daily 7 to 11", font=font(22), fill=(60, 60, 60), anchor="mm")
    d.text((80, 220), "BREAKFAST COMBOS", font=font(30, BOLD), fill=(20, 20, 20))
    for k, item in enumerate(["Eggs and toast $6", "Pancakes $7", "Oatmeal $4"]):
        d.ellipse([84, 277 + 36 * k, 92, 285 + 36 * k], fill=(20, 20, 20))
        d.text((104, 270 + 36 * k), item, font=font(20), fill=(20, 20, 20))
    d.text((80, 560), "Prices include tax", font=font(14), fill=(90, 90, 90))
    return img


def kpis(middle: str, extra: str | None = None) -> Image.Image:
    """900x400: a title, three bordered KPI cards (label over value), a note, and optionally a
    loose big string under the note (what an editor that adds a copy would write)."""
    img = Image.new("RGB", (900, 400), (245, 246, 250))
    d = ImageDraw.Draw(img)
    d.text((40, 30), "Quarterly dashboard", font=font(34, BOLD), fill=(20, 30, 60))
    for k, (label, value) in enumerate(zip(("Visitors", "Orders", "NPS"), ("12,300", middle, "96%"))):
        x = 40 + 280 * k
        d.rounded_rectangle([x, 110, x + 250, 250], radius=6, fill=(255, 255, 255), outline=(200, 205, 215), width=2)
        d.text((x + 20, 130), label, font=font(20), fill=(90, 90, 110))
        d.text((x + 20, 170), value, font=font(40, BOLD), fill=(20, 30, 60))
    d.text((40, 300), "Figures are preliminary", font=font(16), fill=(100, 100, 100))
    if extra:
        d.text((40, 340), extra, font=font(34, BOLD), fill=(0, 0, 0))
    return img


def legend() -> Image.Image:
    """700x400: bars and a legend of three entries with colour swatches; "Europe" also in a note."""
    img = Image.new("RGB", (700, 400), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((30, 20), "Sales by region", font=font(30, BOLD), fill=(0, 0, 0))
    entries = [((220, 60, 50), "North America"), ((50, 110, 220), "Europe"), ((60, 170, 80), "Asia Pacific")]
    for k, (colour, text) in enumerate(entries):
        y = 100 + 40 * k
        d.rectangle([470, y + 3, 488, y + 21], fill=colour)
        d.text((500, y), text, font=font(20, LIBERATION), fill=(30, 30, 30))
        d.rectangle([60 + 120 * k, 300 - 60 * (k + 1), 140 + 120 * k, 300], fill=colour)
    d.text((30, 330), "Europe grew fastest this year", font=font(18), fill=(30, 30, 30))
    return img


def slide() -> Image.Image:
    """1000x560, light on dark: a title, a subtitle, and three bullets (drawn dots) in about the
    subtitle's type right under it (a tester's Chromium slide: the subtitle read as one block with them)."""
    img = Image.new("RGB", (1000, 560), (29, 53, 87))
    d = ImageDraw.Draw(img)
    d.text((60, 40), "Quarterly Strategy Review", font=font(48, BOLD), fill=(255, 255, 255))
    d.text((60, 120), "Prepared for the Board of Directors", font=font(26), fill=(168, 218, 220))
    for k, item in enumerate(["Expand into Nordic markets", "Cut logistics costs by 12%", "Launch loyalty program"]):
        d.ellipse([84, 186 + 44 * k, 92, 194 + 44 * k], fill=(255, 255, 255))
        d.text((104, 175 + 44 * k), item, font=font(27), fill=(255, 255, 255))
    return img


@lru_cache(maxsize=None)
def page(name: str, *args) -> tuple[Image.Image, list[Line]]:
    """A page and its OCR lines, read once per test session."""
    img = {"menu": menu, "kpis": kpis, "legend": legend, "slide": slide}[name](*args)
    return img, OCRJudge().read(img)


def judged(name: str, args: tuple, text: str, element: ElementSpec, with_image: bool = True):
    img, lines = page(name, *args)
    spec = QuestionSpec("exact", TextSpec((text,), element=element))
    return OCRJudge().judge_lines(lines, img.size, Check("1", "", spec=spec), img if with_image else None)


def test_title_is_the_largest_type_of_the_top_band_not_a_decoy_that_contains_its_word():
    img, lines = page("menu", "BREAKAST")
    titles = find_elements(ElementSpec("title"), lines, img, img.size)
    assert [t.text for t in titles] == ["BREAKAST"] and titles[0].box[1] < 60
    assert [s.text for s in find_elements(ElementSpec("subtitle"), lines, img, img.size)] == ["Served daily 7 to 11"]
    headings = [h.text for h in find_elements(ElementSpec("heading"), lines, img, img.size)]
    assert "BREAKFAST COMBOS" in headings and "Pancakes $7" not in headings
    v = judged("menu", ("BREAKAST",), "BREAKFAST", ElementSpec("title", phrase="the large main title"))
    # "BREAKFAST" is read, but only inside the heading "BREAKFAST COMBOS": not the title
    assert v.answer == "no" and v.evidence["rule"] == "element", v.reason
    assert "'BREAKFAST COMBOS'" in v.reason and "the title" in v.reason
    title_only = judged("menu", ("BREAKAST",), "BREAKFAST", ElementSpec("title", whole=False))  # "contains"
    assert (
        title_only.answer == "no"
        and "the title reads 'BREAKAST', which does not contain 'BREAKFAST'" in title_only.reason
    )
    assert title_only.evidence["expects"][0]["element"]["text"] == "BREAKAST"
    fixed = judged("menu", ("BREAKFAST",), "BREAKFAST", ElementSpec("title"))
    assert fixed.answer == "yes", fixed.reason
    assert fixed.evidence["expects"][0]["element"]["role"] == "title" and "the title" in fixed.reason


def test_bullets_by_ordinal_and_the_footer():
    img, lines = page("menu", "BREAKAST")
    bullets = find_elements(ElementSpec("bullet"), lines, img, img.size)
    assert [b.text for b in bullets] == ["Eggs and toast $6", "Pancakes $7", "Oatmeal $4"]  # dots are no words
    assert judged("menu", ("BREAKAST",), "Oatmeal $4", ElementSpec("bullet", ordinal=3)).answer == "yes"
    assert judged("menu", ("BREAKAST",), "Oatmeal $4", ElementSpec("bullet", ordinal=-1)).answer == "yes"
    second = judged("menu", ("BREAKAST",), "Oatmeal $4", ElementSpec("bullet", ordinal=2))
    assert second.answer == "no" and "'Pancakes $7'" in second.reason
    fourth = judged("menu", ("BREAKAST",), "Oatmeal $4", ElementSpec("bullet", ordinal=4))  # there is none
    assert fourth.answer == "withheld" and "element 'the 4th bullet'" in fourth.evidence["not_checked"]
    assert judged("menu", ("BREAKAST",), "Prices include tax", ElementSpec("footer")).answer == "yes"
    assert judged("menu", ("BREAKAST",), "Served daily 7 to 11", ElementSpec("footer")).answer == "no"


def test_kpi_cards_left_to_right_and_the_container():
    img, lines = page("kpis", "18,540", "18,450")
    second = ElementSpec("card", ordinal=2, phrase="the second KPI card from the left")
    frames = {e.frame for e in find_elements(second, lines, img, img.size)}
    assert len(frames) == 1 and abs(next(iter(frames))[0] - 320) <= 4  # the middle card's border
    v = judged("kpis", ("18,540", "18,450"), "18,450", second)
    # the wanted value is on the page, but loose under the note: the card still shows 18,540
    assert v.answer == "no" and "'18,540'" in v.reason and v.evidence["elements"][0]["frame"], v.reason
    assert judged("kpis", ("18,450",), "18,450", second).answer == "yes"
    nps = judged("kpis", ("18,450",), "96%", ElementSpec("whole", container="NPS"))
    assert nps.answer == "yes", nps.reason
    assert judged("kpis", ("18,450",), "96%", ElementSpec("whole", container="Orders")).answer == "no"
    no_image = judged("kpis", ("18,450",), "18,450", second, with_image=False)  # cards are found from pixels
    assert no_image.answer == "withheld"
    assert no_image.evidence["not_checked"] == [f"element {describe_element(second)!r}"]


def test_legend_entries_beside_swatches_and_withheld_where_there_are_none():
    img, lines = page("legend")
    entries = find_elements(ElementSpec("legend_entry"), lines, img, img.size)
    assert [e.text for e in entries] == ["North America", "Europe", "Asia Pacific"]  # swatch marks dropped
    assert judged("legend", (), "Europe", ElementSpec("legend_entry")).answer == "yes"
    assert judged("legend", (), "Europe", ElementSpec("legend_entry", ordinal=1)).answer == "no"
    none_here = judged("menu", ("BREAKAST",), "Pancakes $7", ElementSpec("legend_entry"))
    assert none_here.answer == "withheld" and none_here.evidence["rule"] == "element"


def words(text: str, x: int, y: int, h: int, rotated: bool = False) -> tuple[Word, ...]:
    """Hand-made word boxes of a line of cap height ``h``: 0.6 h per character, one space between
    words, the ink as tall as the word's characters reach (descenders lower); rotated: stacked upwards."""
    out, pos = [], 0
    for w in text.split():
        n, ink = int(0.6 * h * len(w)), round(h * em_fraction(w) / em_fraction("H"))
        box = (x, y - pos - n, x + ink, y - pos) if rotated else (x + pos, y, x + pos + n, y + ink)
        out.append(Word(w, box))
        pos += n + int(0.4 * h)
    return tuple(out)


def chart_lines(y_title: str | None, loose: str | None = None) -> list[Line]:
    """A chart's lines: a title, tick labels under the plot, an x-axis title under them, and a
    y-axis title read rotated (``angle`` 90) along the left edge; ``loose``: horizontal text at
    the top left (what an editor that wrote the label as loose text leaves)."""
    lines = [Line(words("Weekly active users", 200, 20, 30))]
    lines += [Line(words(m, 120 + 110 * k, 420, 16)) for k, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May"))]
    lines.append(Line(words("Month", 330, 450, 18)))
    if y_title:
        lines.append(Line(words(y_title, 40, 330, 18, rotated=True), angle=90))
    if loose:
        lines.append(Line(words(loose, 20, 70, 18)))
    return lines


def test_axis_titles_from_rotated_lines_and_tick_labels():
    size = (700, 500)
    y_axis = ElementSpec("axis_title", axis="y", phrase="the y-axis label")

    def decide(lines, text, element):
        return decide_text(TextSpec((text,), element=element), lines, None, size)

    assert decide(chart_lines("Users (thousands)"), "Users (thousands)", y_axis).holds is True
    wrong = decide(chart_lines("Users (thousand)"), "Users (thousands)", y_axis)
    assert wrong.holds is False and wrong.rule == "read"  # the string is nowhere
    moved = decide(chart_lines("Revenue", loose="Users (thousands)"), "Users (thousands)", y_axis)
    assert moved.holds is False and "the y-axis title reads 'Revenue'" in moved.detail
    unread = decide(chart_lines(None, loose="Users (thousands)"), "Users (thousands)", y_axis)
    assert unread.holds is None and unread.unknown == ["element 'the y-axis title'"]  # loose text is no axis title
    x_axis = ElementSpec("axis_title", axis="x")
    assert decide(chart_lines(None), "Month", x_axis).holds is True
    assert decide(chart_lines(None), "Weekly active users", x_axis).holds is False


def test_unknown_role_is_an_error():
    with pytest.raises(ValueError, match="unknown element role 'sidebar'"):
        find_elements(ElementSpec("sidebar"), [], None, (10, 10))


def test_table_cells_by_row_and_column_and_menu_items_of_a_row():
    """Hand-made lines of a table (a header row, two rows) and a navigation row."""

    def row(cells, y, xs=(40, 200, 320, 440)):
        return [Line(words(c, x, y, 16)) for c, x in zip(cells, xs)]

    lines = row(("Home", "About", "Programs", "Blog"), 20)
    lines += row(("Source", "2023", "2024", "Share"), 100) + row(("Solar", "64", "19", "8%"), 140)
    lines += row(("Hydro", "11", "61", "16%"), 180)
    size = (600, 300)

    def decide(text, element):
        return decide_text(TextSpec((text,), element=element), lines, None, size)

    cell = ElementSpec("table_cell", row="Hydro", column="2024")
    assert [e.text for e in find_elements(cell, lines, None, size)] == ["61"]
    assert decide("61", cell).holds is True
    other = decide("19", cell)  # another row's value in that column
    assert other.holds is False and "reads '61'" in other.detail
    assert find_elements(ElementSpec("table_cell", row="Wind", column="2024"), lines, None, size) is None
    third = ElementSpec("list_item", ordinal=3, phrase="the third navigation item")
    assert decide("Programs", third).holds is True and decide("Blog", third).holds is False


def button_page() -> Image.Image:
    """600x240: a filled rounded button "Sign up" (dark on yellow), and "Sign up" again inside a sentence."""
    img = Image.new("RGB", (600, 240), (250, 250, 250))
    d = ImageDraw.Draw(img)
    d.text((30, 30), "Sign up today for the newsletter", font=font(22), fill=(30, 30, 30))
    d.rounded_rectangle([360, 130, 560, 200], radius=14, fill=(250, 200, 60))
    d.text((460, 165), "Sign up", font=font(26, BOLD), fill=(20, 20, 20), anchor="mm")
    return img


def test_text_inside_a_button():
    img = button_page()
    lines = OCRJudge().read(img)
    buttons = find_elements(ElementSpec("button"), lines, img, img.size)
    assert buttons and all(e.frame is not None and e.frame[0] >= 350 for e in buttons)
    assert "Sign up" in [e.text for e in buttons]
    spec = TextSpec(("Sign up",), element=ElementSpec("button"))
    assert decide_text(spec, lines, img, img.size).holds is True
    assert decide_text(TextSpec(("Sign up today",), element=ElementSpec("button")), lines, img, img.size).holds is False
    assert decide_text(spec, lines, None, img.size).holds is None  # buttons are found from pixels


def test_an_empty_bullet_counts_among_the_bullets():
    """A bullet whose text is missing leaves its dot, which OCR reads as a lone "e": it is still
    the second bullet (it reads ''), so the third is the line after it."""

    def bullet(mark, text, y):
        return (
            Line((Word(mark, (52, y + 5, 59, y + 12)),) + words(text, 70, y, 14))
            if text
            else Line((Word(mark, (52, y + 5, 59, y + 12)),))
        )

    lines = [bullet("¢", "Meet the artists", 300), bullet("e", None, 332), bullet("¢", "Three new offices", 364)]
    size = (600, 800)
    third = decide_text(TextSpec(("Three new offices",), element=ElementSpec("bullet", ordinal=3)), lines, None, size)
    assert third.holds is True
    second = decide_text(TextSpec(("Three new offices",), element=ElementSpec("bullet", ordinal=2)), lines, None, size)
    assert second.holds is False and "the 2nd bullet reads ''" in second.detail


def _row(text: str, x: int, y: int, h: int = 15) -> Line:
    """One hand-made OCR line: words 12 px per character, 10 px apart."""
    words, cx = [], x
    for t in text.split():
        words.append(Word(t, (cx, y, cx + 12 * len(t), y + h)))
        cx += 12 * len(t) + 10
    return Line(tuple(words))


def test_a_footer_wrapped_from_above_the_bottom_band_is_read_whole():
    # a footnote of four narrow lines starts at 73% of the page (the band is the bottom 20%):
    # its first line is part of it; the table rows above it are not
    lines = [_row("Name Score", 40, 45), _row("Advice 53", 40, 95)]
    lines += [_row(t, 41, y) for t, y in (("Source:", 306), ("survey of", 332), ("2024", 358), ("members", 384))]
    [footer] = find_elements(ElementSpec("footer"), lines, None, (600, 420))
    assert footer.text == "Source: survey of 2024 members"


def test_a_dot_read_as_e_at_and_a_trailing_percent_sign():
    # OCR reads a bullet dot and its anti-aliased ring as "e@": a mark, not a word of the bullet;
    # a trailing "(%)" has no letter or digit but is text of the axis title, not a mark
    lines = [_row("Poster Title", 40, 40, 30)]
    lines += [_row(t, 40, y) for t, y in (("e Fresh bread", 120), ("e@ Workshops for young makers", 150))]
    bullets = find_elements(ElementSpec("bullet"), lines, None, (600, 420))
    assert [b.text for b in bullets] == ["Fresh bread", "Workshops for young makers"]
    axis = Line(_row("Share of respondents (%)", 50, 200).words, angle=90)
    [title] = find_elements(ElementSpec("axis_title", axis="y"), [*lines, axis], None, (600, 420))
    assert title.text == "Share of respondents (%)"


def test_the_subtitle_ends_where_a_list_of_bullets_starts():
    img, lines = page("slide")
    subtitles = find_elements(ElementSpec("subtitle"), lines, img, img.size)
    assert [e.text for e in subtitles] == ["Prepared for the Board of Directors"]
    assert judged("slide", (), "Prepared for the Board of Directors", ElementSpec("subtitle")).answer == "yes"
    assert judged("slide", (), "Expand into Nordic markets", ElementSpec("subtitle")).answer == "no"
    assert judged("slide", (), "Expand into Nordic markets", ElementSpec("bullet", ordinal=1)).answer == "yes"


def test_the_page_heading_is_the_pages_title_not_a_sidebar_link_that_reads_the_string():
    """A tester's admin page: a sidebar link "Orders" and the page heading "Orders Dashboard".
    "the page heading" was a generic role, any whole line: a false "yes" for "Orders"."""
    lines = [
        Line(words("Acme Admin", 24, 24, 20)),
        Line(words("Orders Dashboard", 300, 38, 30)),
        *(Line(words(w, 24, 87 + 35 * k, 14)) for k, w in enumerate(("Overview", "Orders", "Customers"))),
    ]

    def ask(text: str) -> str:
        q = f'Does the page heading read exactly "{text}"?'
        return OCRJudge().judge_lines(lines, (1200, 700), Check("1", q, spec=compile_question(q))).answer

    assert compile_question('Does the page heading read exactly "Orders"?').text.element.role == "title"
    assert ask("Orders") == "no" and ask("Orders Dashboard") == "yes"


def test_a_flat_legend_handle_beside_a_word_with_no_descender_is_a_swatch(tmp_path):
    """Engine dev pie-23 (``documents.engines``, matplotlib): the legend's 28 x 9 px handles. "Wind"
    and "Solar" (no descender: their em read 18 px from a 13 px box, the type is 15 px) had a
    handle 0.5 of that em high, under the 0.55 a square swatch needs: "Wind" was a false "no"."""
    import numpy as np

    from documents.engines.split import make_doc
    from rewards.text.page.legend_marks import swatch_left
    from rewards.text.page.page_lines import type_size

    make_doc("matplotlib", 23, "dev", tmp_path)
    rgb = np.asarray(Image.open(tmp_path / "matplotlib-pie-23_clean.png").convert("RGB"))
    read = {"Solar": (692, 263, 730, 276), "Wind": (692, 285, 729, 298), "Hydro": (693, 307, 736, 322)}  # tesseract
    for text, box in read.items():
        assert swatch_left(rgb, box, type_size(Line((Word(text, box, 96.0),)))), text
    assert not swatch_left(rgb, (458, 497, 506, 512), 16.0)  # the slice label "Hydro": no swatch left of it
