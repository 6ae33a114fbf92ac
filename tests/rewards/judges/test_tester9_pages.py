"""A ninth tester's wrong verdicts on seeded pages of their own (``benchmarks/fresh9_pages.py``;
issue 31): each rebuilt from the page where it was found as OCR lines (tesseract's words at the
boxes it gave), so no test runs tesseract."""

from judge_helpers import judge_question, ocr_line
from PIL import Image, ImageDraw, ImageFont

from rewards.text.ocr.text_match import Line, Word


def lines_of(rows: list[list[tuple]]) -> list[Line]:
    """OCR lines from rows of ``(text, box)`` or ``(text, box, conf)``; confidence 96 unless given."""
    return [Line(tuple(Word(w[0], w[1], w[2] if len(w) > 2 else 96.0) for w in row)) for row in rows]


MULTIPLES = [
    [("Monthly", (299, 13, 387, 38)), ("spend", (395, 13, 462, 38)), ("by", (471, 13, 497, 38)),
     ("department,", (505, 13, 638, 38)), ("2024", (648, 14, 703, 33))],
    [("Finance", (91, 63, 159, 78)), ("department", (165, 63, 263, 82))],
    [("Procurement", (571, 64, 681, 78)), ("department", (686, 63, 784, 82))],
    [("85", (69, 97, 85, 108))], [("70", (550, 115, 565, 126))], [("80", (69, 136, 85, 146))],
    [("60", (550, 167, 565, 178))], [("75", (70, 175, 85, 185))], [("70", (70, 213, 85, 224))],
    [("50", (550, 218, 565, 229))], [("rn", (683, 218, 705, 228), 64)], [("65", (70, 252, 85, 263))],
    [("40", (549, 270, 565, 281))], [("60", (70, 291, 85, 302))],
    [("Legal", (91, 343, 137, 362)), ("department", (143, 343, 241, 362))],
    [("Logistics", (571, 343, 645, 362)), ("department", (651, 343, 749, 362))],
    [("70", (550, 389, 565, 400))], [("ms", (714, 386, 728, 400), 16)], [("95", (69, 399, 85, 410))],
    [("90", (69, 442, 85, 453))], [("65", (550, 445, 565, 456))], [("60", (550, 501, 565, 512))],
    [("85", (69, 485, 85, 496))], [("80", (69, 528, 85, 538))], [("55", (549, 556, 565, 567))],
    [("75", (69, 570, 85, 581))],
    *[[(str(v), (x, 586, x + (15 if v > 9 else 8), 597))] for x, v in
      ((138, 2), (203, 4), (270, 6), (336, 8), (399, 10), (465, 12), (618, 2), (683, 4), (750, 6), (816, 8))],
    [("\u2014\u2014", (378, 632, 414, 635), 85), ("Budget", (429, 626, 486, 644), 95)],
    [("\u2014--", (522, 632, 558, 635), 24), ("Actual", (572, 626, 621, 640))],
]  # fmt: skip
"""fresh9-multiples-2's clean page as tesseract read it (matplotlib ``fivethirtyeight``, 1000x660): a
suptitle, four panels each titled in 14 pt over its plot (the y tick labels stand left of the
title, the plot's lines read as stray glyphs "rn", "ms" with low confidence), x ticks, a legend."""


def test_a_panel_title_over_its_plot_is_not_refuted_as_a_heading():
    """ "Is there a section heading that reads exactly 'Legal department'?" was "no" ("the heading
    reads 'Monthly spend by department, 2024' / 'ms'"): the heading finder measures a line against
    the body under it, and a panel's title has none (its plot is graphics). It was withheld
    (``generic_roles.over_plot``); since judge13 the panels' titles are headings
    (``panel_titles``: display type over a column of y tick numbers, two or more in one size):
    "yes"; a string not on the page stays "no"."""
    lines = lines_of(MULTIPLES)
    q = 'Is there a section heading that reads exactly "{}"?'
    for name in ("Finance department", "Legal department", "Logistics department", "Procurement department"):
        assert judge_question(q.format(name), lines, (1000, 660)).answer == "yes", name
    assert judge_question(q.format("Research department"), lines, (1000, 660)).answer == "no"


def test_a_stray_tick_glyph_joined_to_a_panel_title_does_not_refute_it():
    rows = [r for r in MULTIPLES if r[0][0] != "Logistics"]
    rows.append([("0", (557, 361, 565, 372), 26), ("Logistics", (571, 343, 645, 362)),
                 ("department", (651, 343, 749, 362))])  # fmt: skip
    q = 'Is there a section heading that reads exactly "{}"?'
    assert judge_question(q.format("Logistics department"), lines_of(rows), (1000, 660)).answer != "no"
    assert judge_question(q.format("Logistics departments"), lines_of(rows), (1000, 660)).answer == "no"


def test_a_low_confidence_glyph_on_the_title_band_stays_in_its_line():
    """The tick glyph rule (``page_lines._is_noise``) drops a glyph whose middle lies off the next
    word's rows; a low-confidence "0" level with the title is a word of it: "0 Logistics department"
    is no "Logistics department"."""
    rows = [r for r in MULTIPLES if r[0][0] != "Logistics"]
    rows.append([("0", (557, 345, 565, 360), 26), ("Logistics", (571, 343, 645, 362)),
                 ("department", (651, 343, 749, 362))])  # fmt: skip
    q = 'Is there a section heading that reads exactly "Logistics department"?'
    assert judge_question(q, lines_of(rows), (1000, 660)).answer == "no"


RECEIPT = [
    [("Cobalt", (108, 42, 192, 60)), ("Coffee", (209, 42, 294, 60)), ("Bar", (311, 44, 351, 60))],
    [("9", (181, 72, 189, 83)), ("Mill", (198, 71, 234, 83)), ("Lane", (245, 72, 279, 83))],
    [("Item", (31, 116, 66, 127))], [("EUR", (403, 117, 428, 127))],
    [("Oat", (31, 139, 57, 150), 95), ("milk", (69, 138, 106, 150), 95), ("iL", (117, 139, 134, 150), 83)],
    [("2.35", (392, 139, 429, 150))],
    [("Olive", (31, 162, 77, 174)), ("oil", (88, 162, 116, 174), 93), ("500m1", (127, 162, 173, 174), 81)],
    [("8.95", (392, 163, 429, 174))],
    [("Dark", (31, 186, 67, 198)), ("chocolate", (79, 186, 164, 198))], [("2.80", (392, 187, 429, 198))],
]  # fmt: skip
"""fresh9-receipt-4's item rows as tesseract read them (Chromium, Liberation Mono 16 px): the "1"
of "Oat milk 1L" read "i", the "l" of "500ml" read "1"."""


def test_a_digit_one_read_as_i_in_a_monospace_face_is_withheld():
    """ "Is the first row label in the first column exactly 'Oat milk 1L'?" was "no": Liberation
    Mono's "1" (a flag and a foot serif) is read "i" with confidence 83, and "i" was no look-alike of
    "1". An "i" read where the string has a "1" is a look-alike (``ocr_doubt._one_read_as_i``):
    withheld. An "i" where the string has the letter "l" stays a difference."""
    lines = lines_of(RECEIPT)
    q = 'Is the {} row label in the first column exactly "{}"?'
    assert judge_question(q.format("first", "Oat milk 1L"), lines, (460, 640)).answer == "withheld"
    assert judge_question(q.format("first", "Oat milk 1i"), lines, (460, 640)).answer == "no"
    misspelt = [r if r[0][0] != "Olive" else [("Olive", (31, 162, 77, 174)), ("oii", (88, 162, 116, 174)),
                                             ("500ml", (127, 162, 173, 174))] for r in RECEIPT]  # fmt: skip
    assert judge_question(q.format("second", "Olive oil 500ml"), lines_of(misspelt), (460, 640)).answer == "no"


COMPARE = [
    [("Build", (67, 47, 166, 78)), ("in-house", (183, 47, 354, 78)), ("or", (369, 55, 409, 78), 95),
     ("buy", (424, 47, 495, 87), 95), ("a", (508, 55, 531, 78)), ("platform?", (545, 47, 734, 87), 95)],
    [("Options", (65, 99, 132, 118)), ("reviewed", (140, 99, 217, 114)), ("by", (225, 99, 245, 118)),
     ("the", (251, 99, 278, 114)), ("steering", (285, 99, 354, 118)), ("group", (362, 103, 411, 118))],
    [("Build", (96, 180, 162, 200)), ("in-house", (173, 180, 288, 200))],
    [("Buy", (731, 180, 783, 206)), ("a", (791, 184, 807, 200)), ("platform", (815, 179, 925, 206), 95)],
    [("/\u201c", (97, 228, 108, 240), 27), ("Proven", (119, 228, 182, 242)), ("at", (190, 228, 207, 242)),
     ("larger", (214, 227, 266, 246)), ("firms", (273, 227, 318, 242))],
    [("\u201c", (733, 228, 744, 240), 24), ("Support", (754, 228, 827, 246)), ("included", (834, 227, 910, 242)),
     ("in", (918, 227, 932, 242)), ("price", (940, 227, 984, 246))],
    [("\u201cY", (96, 268, 108, 280), 43), ("No", (118, 268, 143, 282), 94), ("hiring", (151, 266, 200, 286)),
     ("needed", (208, 266, 276, 282))],
    [("\u201c", (733, 268, 744, 280), 48), ("Faster", (755, 268, 813, 282)), ("time", (819, 266, 858, 282)),
     ("to", (864, 268, 881, 282)), ("market", (889, 266, 952, 282))],
    [("\u201cY", (96, 308, 108, 320), 16), ("Full", (118, 307, 150, 322)), ("control", (157, 307, 219, 322)),
     ("of", (226, 307, 244, 322)), ("the", (249, 307, 278, 322)), ("roadmap", (285, 307, 366, 326))],
    [("Y", (733, 308, 744, 320), 23), ("Predictable", (755, 307, 858, 322)), ("monthly", (865, 307, 938, 326)),
     ("fees", (944, 307, 983, 322))],
    [("Three", (94, 351, 135, 363)), ("year", (140, 354, 171, 366)), ("cost,", (176, 352, 208, 365)),
     ("option", (215, 351, 256, 366)), ("1", (263, 351, 270, 363))],
    [("Three", (730, 351, 771, 363)), ("year", (776, 354, 807, 366)), ("cost,", (812, 352, 844, 365)),
     ("option", (850, 351, 892, 366)), ("2", (899, 351, 906, 363))],
    [("$720k", (94, 372, 177, 396))], [("$601k", (730, 372, 813, 396), 95)],
    [("Recommendation:", (89, 652, 248, 667)), ("buy", (257, 652, 288, 671)), ("a", (294, 656, 305, 667)),
     ("platform,", (311, 652, 386, 671)), ("decision", (394, 652, 466, 667)), ("due", (473, 652, 505, 667)),
     ("next", (513, 653, 549, 667)), ("month", (556, 652, 610, 667))],
]  # fmt: skip
"""fresh9-compare-6's clean page as tesseract read it (Chromium 1280x720, Liberation Sans): two
option columns on pastel panels, each a heading, three items after a green check mark "✓" (read
"“Y", "“", "Y" with confidence 16-48) and a cost label over its value; a dark recommendation bar."""


def compare_page() -> Image.Image:
    """The compare slide's fills: two pastel option panels (#edf6f9, #fdf0d5) and the dark bar."""
    img = Image.new("RGB", (1280, 720), "white")
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((64, 153, 580, 423), 14, fill="#edf6f9")
    d.rounded_rectangle((700, 153, 1216, 423), 14, fill="#fdf0d5")
    d.ellipse((600, 330, 680, 410), fill="#22223b")
    d.rounded_rectangle((64, 635, 1216, 686), 10, fill="#22223b")
    return img


def test_a_check_mark_read_as_letters_before_a_list_item_is_no_part_of_it():
    """The check mark "✓" before each option is read "“Y", "“", "Y" or "/“" (confidence 16-48): a
    short low-confidence word opening every line of a list at one left edge, its text at another,
    is the list's mark (``page_lines._list_mark``), no word of the item. Judged without the image:
    ``compare_page`` has no glyphs, so the look-alike check could not confirm "roadmap"."""
    q = 'Is the {} item under the "{}" heading exactly "{}"?'
    lines = lines_of(COMPARE)
    for nth, head, item in (("third", "Build in-house", "Full control of the roadmap"),
                            ("first", "Build in-house", "Proven at larger firms"),
                            ("second", "Buy a platform", "Faster time to market"),
                            ("third", "Buy a platform", "Predictable monthly fees")):  # fmt: skip
        assert judge_question(q.format(nth, head, item), lines, (1280, 720)).answer == "yes", item
    wrong = q.format("third", "Build in-house", "Full control of roadmap")
    assert judge_question(wrong, lines, (1280, 720)).answer == "no"


def test_a_lone_low_confidence_word_opening_a_line_stays_in_it():
    """One line opening with a short low-confidence word is no list's mark: "Y Full control of the
    roadmap" with no line below opening alike keeps its "Y"."""
    rows = [r for r in COMPARE if r[0][0] not in ("\u201cY", "/\u201c", "\u201c", "Y")]
    rows.append([("Y", (96, 308, 108, 320), 16), ("Full", (118, 307, 150, 322)),
                 ("control", (157, 307, 219, 322)), ("of", (226, 307, 244, 322)), ("the", (249, 307, 278, 322)),
                 ("roadmap", (285, 307, 366, 326))])  # fmt: skip
    q = 'Is the first item under the "Build in-house" heading exactly "Full control of the roadmap"?'
    assert judge_question(q, lines_of(rows), (1280, 720)).answer != "yes"


def test_a_card_label_on_a_pastel_panel_is_not_refuted_by_another_card():
    """The pastel option panels (11-14 levels off white, no border) are cards
    (``rectangles.card_rectangles`` looks again at ``PALE_FILL`` contrast), so the dark bar is no
    longer the page's only card. With the image the label is withheld, not "yes": the panel has no
    glyphs, and the look-alike check cannot tell its "1" from "l". A label not drawn stays "no"."""
    q = 'Is there a KPI card labeled exactly "{}"?'
    lines, page = lines_of(COMPARE), compare_page()
    assert judge_question(q.format("Three year cost, option 1"), lines, (1280, 720), page).answer == "withheld"
    assert judge_question(q.format("Three year cost, option 2"), lines, (1280, 720), page).answer == "yes"
    assert judge_question(q.format("Five year cost, option 1"), lines, (1280, 720), page).answer == "no"


def highlights_page() -> tuple[list[Line], Image.Image]:
    """A dashboard's "Highlights" heading over three bulleted items (DejaVu), the second item's words
    read with confidence 60: ink in the heading's column that no confident word covers."""
    items = ["Support tickets resolved within one day", "New mobile app reached ten thousand users",
             "Three new regional offices opened"]  # fmt: skip
    img = Image.new("RGB", (700, 300), "white")
    d = ImageDraw.Draw(img)
    big, small = ImageFont.truetype("DejaVuSans-Bold.ttf", 24), ImageFont.truetype("DejaVuSans.ttf", 16)
    d.text((40, 30), "Highlights", font=big, fill="black")
    lines = [ocr_line("Highlights", 40, 30, 24, 95, 8)]
    for k, text in enumerate(items):
        y = 80 + 34 * k
        d.ellipse((42, y + 6, 48, y + 12), fill="black")
        d.text((60, y), text, font=small, fill="black")
        words = ocr_line(text, 60, y, 16, 60 if k == 1 else 95, 6).words
        lines.append(Line((Word("\u2022", (42, y + 6, 48, y + 12), 90.0), *words)))
    return lines, img


def test_unread_ink_under_a_heading_does_not_withhold_a_missing_list_item():
    """``unread_places.unread_place`` (rule 7 of ``ocr_doubt``) withholds a string not read when its
    place by a read anchor holds unread ink: meant for a short label ("48k" over a bar). Under a
    heading the place is a whole column of text, where a word read with low confidence is unread
    ink: an engine dashboard's missing first item "under the 'Highlights' heading" was withheld.
    A string of more than ``LABEL_WORDS`` words keeps its "no"; a short label is still withheld."""
    lines, img = highlights_page()
    q = 'Is the first item under the "Highlights" heading exactly "{}"?'
    assert judge_question(q.format("Launch the partner portal in May"), lines, img.size, img).answer == "no"
    assert judge_question(q.format("Support tickets resolved within one day"), lines, img.size, img).answer == "yes"
    label = 'Is the value label below the "Highlights" heading "48k"?'
    assert judge_question(label, lines, img.size, img).answer == "withheld"


def drawn_line(d: ImageDraw.ImageDraw, text: str, x: int, y: int, font, fill) -> Line:
    """Draw ``text`` at (x, y) word by word and return it as an OCR line with each word's ink box."""
    words = []
    for t in text.split():
        box = d.textbbox((x, y), t, font=font)
        d.text((x, y), t, font=font, fill=fill)
        words.append(Word(t, tuple(int(v) for v in box), 96.0))
        x = box[2] + round(0.3 * font.size)
    return Line(tuple(words))


def test_a_bold_sidebar_heading_over_bullets_read_apart_is_a_heading():
    """fresh9-news_sidebar-8: a dark sidebar's bold "In this issue" over regular list items whose
    first bullet tesseract read as a line of its own ("e"). That line was a body line of the
    heading finder: it has no measured weight, so "bold over regular body" failed and the heading
    was refuted ("the heading reads 'Field Notes' / ..."). A line that is only a mark is no body line."""
    img = Image.new("RGB", (940, 300), "white")
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 274, 300), fill=(95, 15, 64))
    bold, regular = ImageFont.truetype("DejaVuSans-Bold.ttf", 17), ImageFont.truetype("DejaVuSans.ttf", 16)
    lines = [drawn_line(d, "In this issue", 22, 30, bold, "white")]
    for k, item in enumerate(["Upcoming training dates", "Volunteer day recap", "Meet the support team"]):
        d.ellipse((24, 72 + 26 * k, 29, 77 + 26 * k), fill="white")
        if k == 0:
            lines.append(Line((Word("e", (24, 71, 29, 76), 82.0),)))
        lines.append(drawn_line(d, item, 40, 64 + 26 * k, regular, "white"))
    lines.append(drawn_line(d, "Field Notes", 315, 30, ImageFont.truetype("DejaVuSerif-Bold.ttf", 36), (95, 15, 64)))
    q = 'Is there a section heading that reads exactly "{}"?'
    assert judge_question(q.format("In this issue"), lines, img.size, img).answer == "yes"
    assert judge_question(q.format("In the issue"), lines, img.size, img).answer == "no"


SIDEBAR_17 = [
    [("The", (314, 37, 388, 64)), ("Green", (404, 38, 524, 64)), ("Desk", (538, 37, 636, 64))],
    [("In", (22, 32, 37, 45)), ("this", (44, 32, 77, 45)), ("issue", (85, 32, 132, 45))],
    [("Anew", (40, 66, 84, 78), 92), ("benefits", (89, 66, 144, 78)), ("portal", (149, 66, 188, 81))],
    [("Issue", (316, 81, 353, 92)), ("49,", (359, 81, 381, 92)), ("April", (388, 81, 422, 94)),
     ("2026", (431, 81, 466, 92))],
    [("Our", (41, 92, 66, 104)), ("recycling", (72, 92, 133, 107)), ("numbers", (140, 92, 200, 104))],
    [("Quarterly", (41, 117, 106, 132)), ("results", (111, 117, 156, 129)), ("at", (162, 118, 175, 129)),
     ("a", (180, 120, 188, 129)), ("glance", (193, 117, 240, 132))],
    [("A", (314, 128, 330, 143)), ("new", (338, 132, 384, 143)), ("benefits", (392, 127, 484, 143)),
     ("portal", (493, 127, 563, 147))],
    [("Claims,", (315, 156, 373, 171)), ("leave", (380, 156, 422, 169)), ("requests", (428, 157, 496, 173)),
     ("and", (503, 156, 532, 169)), ("payslips", (538, 156, 602, 173)), ("now", (609, 160, 642, 169)),
     ("live", (647, 156, 675, 169))],
]  # fmt: skip
"""fresh9-news_sidebar-17's top as tesseract read it (940x620): the sidebar's first item "A new
benefits portal" read "Anew", the same string read exactly as the main column's first heading."""


def test_a_list_item_read_without_a_space_is_not_refuted_by_its_copy_elsewhere():
    """ "Is the first item under the 'In this issue' heading exactly 'A new benefits portal'?" was
    "no" ("read, but not below 'In this issue'"): the exact read is the main column's heading. A
    line in the anchor's place that reads the string but for spaces is a misread of it: withheld
    (``ocr_doubt._variant_in_place``). Another string there stays "no"."""
    lines = lines_of(SIDEBAR_17)
    q = 'Is the first item under the "In this issue" heading exactly "{}"?'
    assert judge_question(q.format("A new benefits portal"), lines, (940, 620)).answer == "withheld"
    assert judge_question(q.format("Our recycling numbers"), lines, (940, 620)).answer == "no"
