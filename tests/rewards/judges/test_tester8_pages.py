"""An eighth tester's wrong verdicts on seeded pages of their own (``benchmarks/fresh8_pages.py``;
issue 31): each rebuilt from the page where it was found as OCR lines (synthetic words at the boxes
tesseract gave), so no test runs tesseract. Those not fixed are strict xfails naming the cause."""

from judge_helpers import judge_question, ocr_line

from rewards.text.ocr.text_match import Line, Word


def line(text: str, x: int, y: int, h: int = 16, conf: float = 96.0, gap: int = 6) -> Line:
    return ocr_line(text, x, y, h, conf, gap)


def verdict(question: str, lines: list[Line], size=(860, 620), image=None):
    return judge_question(question, lines, size, image)


AGENDA = [
    [
        ("Orchard", (49, 38, 186, 65)),
        ("Street", (199, 39, 300, 65)),
        ("Bakery", (312, 38, 430, 73)),
        ("Partner", (442, 39, 566, 65)),
        ("Summit", (577, 38, 708, 65)),
    ],
    [("5", (49, 85, 57, 98)), ("June", (63, 85, 101, 98)), ("2025", (108, 85, 146, 98))],
    [("Congress", (49, 114, 124, 131)), ("Centre,", (131, 114, 188, 130)), ("Tallinn", (194, 114, 244, 127))],
    [("Programme", (49, 167, 170, 187))],
    [("09:00", (54, 213, 100, 226))],
    [("Lightning", (147, 213, 218, 230)), ("talks", (224, 213, 260, 226))],
    [("Main", (544, 213, 580, 226)), ("Hall", (588, 213, 616, 226))],
    [("10:30", (55, 255, 100, 268))],
    [
        ("Panel", (147, 255, 191, 268)),
        ("on", (197, 258, 216, 268)),
        ("supply", (222, 255, 274, 272)),
        ("chains", (279, 255, 330, 268)),
    ],
    [("Main", (544, 255, 580, 268)), ("Hall", (588, 255, 616, 268))],
    [("12:00", (55, 297, 100, 310))],
    [("Networking", (147, 297, 235, 314)), ("reception", (242, 297, 314, 314))],
    [("Main", (544, 297, 580, 310)), ("Hall", (588, 297, 616, 310))],
    [("13:00", (55, 339, 100, 352))],
    [("Investor", (147, 339, 210, 352)), ("roundtable", (216, 339, 300, 352))],
    [("Garden", (544, 339, 602, 352)), ("Terrace", (608, 339, 666, 352))],
    [("14:00", (55, 381, 100, 394))],
    [("Registration", (147, 381, 241, 398)), ("and", (247, 381, 276, 394)), ("coffee", (282, 381, 330, 394))],
    [("Room", (544, 381, 590, 394)), ("Atlas", (595, 381, 634, 394))],
]
"""fresh8-agenda-7's clean page as tesseract read it (Chromium, Liberation Sans 18 px): the title,
date and venue, the "Programme" heading, then five table rows "time | session | room" 42 px apart."""


def agenda_lines() -> list[Line]:
    return [Line(tuple(Word(t, b, 96.0) for t, b in ws)) for ws in AGENDA]


def test_a_table_row_of_an_agenda_is_no_menu_row():
    """The agenda's rows were menus (``finders._rows``: three lines of one size side by side), so the
    first row's second cell, "Lightning talks", was "the second item under 'Programme'": a false
    "yes" (the second session is "Panel on supply chains"). Rows aligned with a row next to them are
    a table's (``finders._in_grid``): its items run down the columns."""
    lines = agenda_lines()
    q = 'Is the {} item under the "Programme" heading exactly "{}"?'
    assert verdict(q.format("second", "Lightning talks"), lines).answer == "no"
    assert verdict(q.format("second", "Panel on supply chains"), lines).answer == "yes"
    assert verdict(q.format("first", "Lightning talks"), lines).answer == "yes"
    assert verdict(q.format("fourth", "Investor roundtable"), lines).answer == "yes"
    assert verdict(q.format("fourth", "Garden Terrace"), lines).answer == "no"


def legend_out_lines(dash: tuple[int, int] = (829, 869)) -> list[Line]:
    """fresh8-line_legend_out-3 (matplotlib ``bmh``, legend right of the axes, no markers): tesseract
    read the first two handles as one dash "—" each, the third as "——"; ``dash``: the handles' x span."""
    x0, x1 = dash
    entries = [("\u2014", "Alpine", 214), ("\u2014", "Baltics", 240), ("\u2014\u2014", "Levant", 268)]
    lines = [
        Line((Word(mark, (x0, y + 7, x1, y + 10), 88.0), Word(name, (881, y, 881 + 7 * len(name), y + 16), 96.0)))
        for mark, name, y in entries
    ]
    lines += [line("Active subscribers, 2025", 301, 25, 19), line("Jan Feb Mar Apr May", 99, 442, 24)]
    return lines


def test_a_plain_legend_stroke_read_as_one_dash_is_a_handle():
    """A line legend drawn without markers: its 40 px stroke was read "—" (one dash), no handle for
    ``page_lines._HANDLE`` (two dashes or more), so only "Levant" was an entry and "Does the legend
    include the label 'Baltics'?" was "no". A single dash 1.6 em or wider is a drawn stroke
    (``legend_marks.handle_left``); a typeset dash (1 em) before a name is not."""
    from PIL import Image

    white = Image.new("RGB", (1000, 520), "white")
    q = 'Does the legend include the label "{}"?'
    for name in ("Alpine", "Baltics", "Levant"):
        assert verdict(q.format(name), legend_out_lines(), (1000, 520), white).answer == "yes", name
    assert verdict(q.format("Balkans"), legend_out_lines(), (1000, 520), white).answer == "no"
    typeset = legend_out_lines(dash=(860, 876))  # 16 px: a dash in text, as "— Jane Doe" under a quote
    assert verdict(q.format("Baltics"), typeset, (1000, 520), white).answer != "yes"


# Tesseract's words on three clean dev pages (boxes as read; confidences set to 96).
INVOICE = [  # fresh8-invoice-13: the total line "Amount due  EUR 5,900.00"
    [("Saltmarsh", (45, 33, 206, 57)), ("Brewing", (220, 33, 350, 64))],
    [("Invoice", (45, 74, 100, 87)), ("INV-4689", (107, 74, 180, 87))],
    [("Billed", (45, 148, 90, 160)), ("to", (95, 149, 110, 160))],
    [("Pinecrest", (45, 174, 115, 186)), ("Energy", (121, 174, 174, 189))],
    [
        ("Issued", (45, 199, 93, 211)),
        ("22", (99, 199, 117, 211)),
        ("March", (124, 199, 169, 211)),
        ("2025", (175, 199, 212, 211)),
    ],
    [("Service", (50, 253, 110, 265))],
    [("Qty", (605, 253, 633, 268))],
    [("2,300.00", (764, 291, 830, 305))],
    [("Security", (51, 291, 112, 306)), ("review", (117, 291, 166, 303))],
    [("Custom", (51, 330, 108, 342)), ("dashboard", (114, 330, 193, 342)), ("build", (199, 330, 233, 342))],
    [("650.00", (779, 330, 830, 342))],
    [("2,950.00", (764, 369, 830, 383))],
    [("Cloud", (51, 369, 94, 381)), ("migration", (100, 369, 168, 384)), ("sprint", (174, 369, 216, 384))],
    [
        ("Amount", (579, 421, 652, 435)),
        ("due", (658, 420, 692, 435)),
        ("EUR", (705, 421, 748, 435)),
        ("5,900.00", (755, 421, 835, 438)),
    ],
    [
        ("Please", (45, 482, 86, 493)),
        ("pay", (91, 485, 113, 496)),
        ("within", (117, 482, 152, 493)),
        ("14", (158, 483, 172, 493)),
        ("days.", (177, 482, 208, 496)),
        ("Thank", (214, 482, 252, 493)),
        ("you", (256, 485, 278, 496)),
    ],
    [("1", (625, 291, 632, 303))],
    [("1", (625, 330, 632, 342))],
    [("1", (625, 369, 632, 381))],
    [("Amount", (765, 252, 830, 265))],
]
PRICING = [  # fresh8-pricing3-5: 36 px bold prices $19, $52, $65 beside a small "per month"
    [
        ("Simple", (167, 36, 294, 69)),
        ("pricing", (310, 36, 437, 69)),
        ("for", (452, 36, 507, 62)),
        ("every", (520, 43, 625, 69)),
        ("team", (638, 38, 733, 62)),
    ],
    [
        ("All", (293, 77, 314, 91)),
        ("plans", (323, 77, 368, 95)),
        ("include", (377, 77, 439, 91)),
        ("a", (447, 81, 456, 91)),
        ("14", (465, 78, 484, 91)),
        ("day", (493, 77, 524, 95)),
        ("free", (531, 77, 565, 91)),
        ("trial", (572, 77, 605, 91)),
    ],
    [("Lite", (26, 151, 70, 167))],
    [("Pro", (333, 151, 372, 167))],
    [("Business", (641, 151, 748, 167))],
    [
        ("$", (334, 188, 354, 220)),
        ("5", (359, 189, 379, 216)),
        ("2", (384, 189, 404, 215)),
        ("per", (412, 207, 438, 218)),
        ("month", (444, 204, 492, 215)),
    ],
    [
        ("$", (641, 188, 662, 220)),
        ("6", (666, 189, 687, 216)),
        ("5", (691, 189, 711, 216)),
        ("per", (720, 207, 745, 218)),
        ("month", (751, 204, 800, 215)),
    ],
    [
        ("¢", (334, 250, 339, 255)),
        ("Two", (351, 246, 380, 258)),
        ("user", (388, 249, 422, 258)),
        ("seats", (427, 246, 468, 258)),
    ],
    [("¢", (27, 250, 32, 255)), ("Daily", (45, 246, 84, 261)), ("backups", (91, 246, 155, 261))],
    [("«", (27, 279, 32, 284)), ("Custom", (45, 275, 104, 287)), ("domains", (111, 275, 178, 287))],
    [("Try", (102, 354, 126, 371)), ("it", (134, 353, 144, 367)), ("free", (150, 353, 182, 367))],
    [("Talk", (398, 353, 430, 367)), ("to", (436, 354, 452, 367)), ("sales", (459, 353, 501, 367))],
    [("Get", (710, 354, 739, 367)), ("started", (745, 353, 804, 367))],
    [
        ("$", (26, 188, 46, 221)),
        ("1", (52, 188, 72, 215)),
        ("9", (75, 188, 96, 216)),
        ("per", (104, 206, 131, 218)),
        ("month", (136, 204, 185, 215)),
    ],
    [("e", (27, 307, 32, 313)), ("Shared", (45, 303, 99, 316)), ("calendars", (106, 303, 183, 316))],
    [
        ("e", (642, 249, 647, 255)),
        ("Ten", (658, 245, 684, 258)),
        ("user", (691, 248, 726, 258)),
        ("seats", (731, 246, 773, 258)),
    ],
    [("e", (642, 278, 647, 284)), ("API", (658, 274, 683, 287)), ("access", (689, 277, 742, 287))],
    [("e", (642, 307, 647, 313)), ("Offline", (659, 303, 710, 316)), ("mode", (717, 303, 761, 316))],
    [("e", (334, 278, 339, 284)), ("Audit", (351, 274, 393, 287)), ("trail", (399, 274, 429, 287))],
    [("«", (334, 307, 339, 313)), ("Phone", (352, 303, 400, 316)), ("support", (406, 304, 467, 319))],
]
STACKED = [  # fresh8-stacked-1 (ggplot): "48k" above the first stack, a white grid line through it
    [("80", (59, 50, 90, 62)), ("-", (82, 48, 91, 69))],
    [("Mam", (104, 71, 134, 81)), ("Retail", (147, 70, 187, 82)), ("stores", (193, 71, 238, 82))],
    [("Mi", (269, 71, 300, 81)), ("Marketplace", (313, 70, 403, 84))],
    [("70-", (60, 106, 90, 118))],
    [("64k", (763, 120, 794, 134))],
    [("61k", (565, 137, 596, 150))],
    [("51k", (368, 193, 398, 206))],
    [("50", (60, 218, 79, 230))],
    [("40", (59, 274, 90, 286)), ("-", (83, 272, 92, 293))],
    [("20", (59, 386, 90, 398)), ("-", (82, 384, 91, 405))],
    [("Q1", (149, 514, 169, 528)), ("2024", (178, 505, 220, 526))],
    [("Q1", (545, 514, 564, 528)), ("2025", (574, 505, 615, 526))],
    [
        ("Larkspur", (259, 29, 363, 53)),
        ("Analytics", (370, 29, 478, 53)),
        ("orders", (488, 29, 564, 48)),
        ("by", (574, 29, 602, 53)),
        ("channel", (611, 29, 703, 48)),
    ],
    [("Mm", (433, 71, 464, 81)), ("Field", (477, 69, 510, 82)), ("sales", (516, 69, 554, 82))],
    [("60", (59, 162, 90, 174)), ("-", (82, 160, 91, 180))],
    [("30", (59, 329, 90, 342)), ("-", (82, 328, 91, 348))],
    [("10", (60, 442, 90, 454)), ("-", (83, 440, 92, 460))],
    [("ii", (169, 209, 442, 504))],
    [("Q2", (346, 513, 368, 529)), ("2024", (376, 504, 418, 526))],
    [("Q2", (742, 513, 763, 529)), ("2025", (771, 504, 813, 526))],
    [("Orders", (34, 306, 49, 364)), ("(thousands)", (34, 196, 51, 299))],
]


def lines_of(words) -> list[Line]:
    return [Line(tuple(Word(t, b, 96.0) for t, b in ws)) for ws in words]


def test_a_total_label_followed_by_its_value_is_not_refuted():
    """ "Amount due  EUR 5,900.00" is one OCR line: the label "Amount due" was "read only inside longer
    text", a "no". A string that opens a line whose rest is a value is withheld
    (``unread_places.label_before_value``); a label read inside a longer label still "no"."""
    v = verdict('Is there a KPI card labeled exactly "Amount due"?', lines_of(INVOICE), (880, 600))
    assert v.answer == "withheld", v.reason
    # "Cloud migration" opens its line too, but "sprint" is no value: the line reads longer
    assert (
        verdict('Is there a KPI card labeled exactly "Cloud migration"?', lines_of(INVOICE), (880, 600)).answer == "no"
    )


def test_a_price_read_one_character_a_word_is_not_refuted():
    """36 px bold "$52" read "$ 5 2" (5 px gaps): '$52' was "not read" and the question a false "no";
    a read only spaces apart is withheld (``ocr_doubt._spacing_or_marks``), another price still "no"."""
    v = verdict('Is the KPI card "Pro" showing "$52"?', lines_of(PRICING), (900, 580))
    assert v.answer == "withheld", v.reason
    assert verdict('Is the KPI card "Pro" showing "$57"?', lines_of(PRICING), (900, 580)).answer == "no"


def test_tier_names_over_prices_read_a_glyph_a_word_head_their_lists():
    """36 px bold "$52" read "$ 5 2 per month" under the tier name "Pro": no figure line
    (``page_lines.figure_line`` needed a digit in the first word), so the price closed the tier's
    section ("'Phone support' read, but not below 'Pro'") and was a heading ("the heading reads
    '5 2 per month', not 'Business'"). A lead mark read alone joins the next word."""
    q = 'Is the {} item under the "{}" heading exactly "{}"?'
    size = (900, 580)
    assert verdict(q.format("third", "Pro", "Phone support"), lines_of(PRICING), size).answer == "yes"
    assert verdict(q.format("first", "Business", "Ten user seats"), lines_of(PRICING), size).answer == "yes"
    assert verdict(q.format("third", "Pro", "Audit trail"), lines_of(PRICING), size).answer == "no"
    assert verdict(q.format("first", "Business", "Two user seats"), lines_of(PRICING), size).answer == "no"
    heading = 'Is there a section heading that reads exactly "{}"?'
    assert verdict(heading.format("Business"), lines_of(PRICING), size).answer == "withheld"  # a label over a value
    assert verdict(heading.format("Prom"), lines_of(PRICING), size).answer == "no"


PRICING_14 = [  # fresh8-pricing3-14 (clean): a 23.6 px tier name "Basic" over "$43" in 36 px with a small "per month"
    [("Simple", (167, 36, 294, 69)), ("pricing", (310, 36, 437, 69)), ("for", (452, 36, 507, 62))],
    [("Basic", (25, 150, 88, 167))],
    [("$", (26, 188, 46, 221)), ("4", (50, 188, 72, 215)), ("3", (76, 188, 96, 216)), ("per", (104, 206, 131, 218)),
     ("month", (136, 204, 185, 215))],
    [("e", (27, 250, 32, 255)), ("API", (44, 246, 68, 258)), ("access", (75, 249, 128, 258))],
    [("e", (27, 278, 32, 284)), ("Offline", (45, 274, 96, 287)), ("mode", (102, 274, 146, 287))],
    [("e", (27, 307, 32, 313)), ("Shared", (45, 303, 99, 316)), ("calendars", (106, 303, 183, 316))],
    [("Standard", (333, 151, 444, 167))],
    [("$", (334, 188, 354, 220)), ("6", (359, 189, 380, 216)), ("2", (384, 189, 404, 215)),
     ("per", (412, 207, 438, 218)), ("month", (444, 204, 492, 215))],
    [("e", (334, 250, 339, 255)), ("Weekly", (352, 246, 408, 261)), ("backups", (415, 246, 480, 261))],
    [("¢", (334, 279, 339, 284)), ("Daily", (353, 275, 391, 290)), ("backups", (398, 275, 462, 290))],
]  # fmt: skip


def test_a_tier_name_over_a_price_with_a_small_unit_is_no_refuted_heading():
    """The price line's type size (a median over "4", "3", "per", "month": 26.8 px) was within
    ``SAME_SIZE`` of "Basic" (23.6), so the name was no label over a figure and "Is there a section
    heading 'Basic'?" a "no"; the figure's own words are measured (``page_lines.figure_size``: 38 px)."""
    heading = 'Is there a section heading that reads exactly "{}"?'
    size = (900, 580)
    assert verdict(heading.format("Basic"), lines_of(PRICING_14), size).answer == "withheld"
    assert verdict(heading.format("Basics"), lines_of(PRICING_14), size).answer == "no"
    q = 'Is the second item under the "Basic" heading exactly "{}"?'
    assert verdict(q.format("Offline mode"), lines_of(PRICING_14), size).answer == "yes"
    assert verdict(q.format("Shared calendars"), lines_of(PRICING_14), size).answer == "no"


def test_an_unread_value_label_is_not_refuted():
    """A white ggplot grid line through "48k": tesseract read nothing above the "Q1 2024" bar, the
    best match was a tick label ("80"): a "no". Placed by a read anchor with nothing close read,
    the string is withheld when its place cannot be seen (no image here: ``unread_places.unread_place``)."""
    assert verdict('Is the value label above the "Q2 2024" bar "51k"?', lines_of(STACKED), (900, 560)).answer == "yes"
    q = 'Is the value label above the "Q1 2024" bar "48k"?'
    assert verdict(q, lines_of(STACKED), (900, 560)).answer == "withheld"
    from PIL import Image, ImageDraw, ImageFont

    # with the page: a bar top and unread ink of a line's height over it withhold; the bar alone keeps the "no"
    blank = Image.new("RGB", (900, 560), (229, 229, 229))
    ImageDraw.Draw(blank).rectangle((126, 235, 244, 503), fill=(226, 74, 51))
    drawn = blank.copy()
    ImageDraw.Draw(drawn).text((168, 208), "48k", fill="black", font=ImageFont.load_default(size=16))
    v = verdict(q, lines_of(STACKED), (900, 560), drawn)
    assert v.answer == "withheld", v.reason
    assert verdict(q, lines_of(STACKED), (900, 560), blank).answer == "no"


ARTICLE = [  # fresh8-article-8 (clean): the heading, its paragraph in two lines, the pull quote's first line
    [
        ("The", (50, 37, 106, 61)),
        ("quiet", (116, 37, 189, 68)),
        ("return", (198, 41, 291, 61)),
        ("of", (301, 37, 328, 61)),
        ("the", (337, 37, 381, 61)),
        ("neighbourhood", (391, 37, 611, 68)),
        ("bakery", (620, 37, 722, 68)),
    ],
    [("By", (51, 83, 68, 98)), ("Hannah", (74, 83, 128, 95)), ("Weiss", (134, 83, 176, 95))],
    [("Looking", (50, 126, 121, 146)), ("ahead", (127, 126, 177, 141))],
    [
        ("Volumes", (492, 137, 564, 151)),
        ("rose", (570, 141, 606, 151)),
        ("by", (613, 137, 634, 156)),
        ("18", (640, 137, 660, 151)),
        ("percent", (665, 139, 732, 156)),
        ("in", (738, 137, 753, 151)),
        ("the", (760, 137, 786, 151)),
        ("first", (792, 136, 828, 156)),
    ],
    [
        ("Residents", (51, 159, 116, 171)),
        ("were", (121, 163, 153, 171)),
        ("asked", (158, 159, 196, 171)),
        ("to", (201, 161, 213, 171)),
        ("vote", (218, 162, 247, 171)),
        ("on", (252, 163, 268, 171)),
        ("every", (273, 163, 310, 175)),
        ("major", (315, 160, 354, 175)),
        ("decision", (359, 159, 414, 171)),
    ],
    [
        ("Smaller", (51, 184, 103, 196)),
        ("operators", (108, 187, 170, 200)),
        ("moved", (175, 184, 220, 196)),
        ("faster", (226, 184, 263, 196)),
        ("than", (267, 184, 296, 196)),
        ("their", (301, 184, 332, 196)),
        ("larger", (337, 184, 376, 200)),
        ("rivals", (380, 184, 417, 196)),
    ],
    [("What", (50, 223, 98, 238)), ("changed", (103, 223, 174, 243))],
]


def test_a_paragraph_read_without_its_periods_is_not_refuted():
    """Liberation Serif 17 px: tesseract read "decision" and "rivals" without the periods that end
    them (one at a wrapped line's end), so the paragraph was "not read" (similarity 0.98) and the
    question a false "no". A read that differs only in spaces and word-end marks is withheld
    (``ocr_doubt._spacing_or_marks``); a swap still reads as another string: "no"."""
    from rewards.judges.ocr_doubt import _spacing_or_marks

    q = (
        'Does the text under the "Looking ahead" heading read exactly "Residents were asked to vote on every major '
        'decision. Smaller operators moved faster than their larger rivals."?'
    )
    size = (900, 560)
    assert verdict(q, lines_of(ARTICLE), size).answer == "withheld"
    swapped = [[(("Smaller", "operators")[1 - k] if t in ("Smaller", "operators") else t, b) for k, (t, b) in
                enumerate(ws)] if ws[0][0] == "Smaller" else ws for ws in ARTICLE]  # fmt: skip
    assert verdict(q, lines_of(swapped), size).answer == "no"
    assert _spacing_or_marks("$ 5 2", "$52") and not _spacing_or_marks("$599", "$5.99")


COLUMNS = [  # fresh8-article-17 (clean): the second section's paragraph ends at the top of the next column ("2029.")
    [
        ("Inside", (51, 37, 138, 61)),
        ("the", (148, 37, 192, 61)),
        ("startups", (202, 41, 320, 68)),
        ("rebuilding", (329, 37, 479, 68)),
        ("rural", (488, 37, 562, 61)),
        ("broadband", (572, 37, 732, 61)),
    ],
    [("By", (51, 83, 68, 98)), ("Yuki", (73, 83, 102, 95)), ("Tanabe", (108, 83, 159, 95))],
    [("2029.", (468, 122, 505, 133))],
    [("Counting", (51, 126, 130, 146)), ("the", (135, 126, 161, 141)), ("cost", (167, 129, 200, 141))],
    [
        ("Most", (51, 160, 84, 171)),
        ("of", (90, 159, 104, 171)),
        ("the", (108, 159, 128, 171)),
        ("savings", (133, 160, 183, 175)),
        ("came", (188, 163, 223, 171)),
        ("from", (229, 159, 260, 171)),
        ("replacing", (266, 159, 328, 175)),
        ("old", (333, 159, 354, 171)),
        ("street", (359, 161, 395, 171)),
    ],
    [
        ("lamps.", (51, 184, 94, 200)),
        ("Demand", (100, 184, 156, 196)),
        ("for", (162, 184, 181, 196)),
        ("weekend", (185, 184, 245, 196)),
        ("deliveries", (250, 184, 316, 196)),
        ("doubled", (320, 184, 374, 196)),
        ("within", (379, 184, 422, 196)),
    ],
    [
        ("Smaller", (491, 176, 560, 190)),
        ("operators", (565, 178, 650, 195)),
        ("moved", (657, 176, 714, 190)),
        ("faster", (719, 175, 769, 195)),
        ("than", (775, 176, 813, 190)),
    ],
    [("a", (50, 214, 57, 222)), ("year.", (62, 214, 93, 226))],
    [("their", (492, 209, 532, 223)), ("larger", (539, 209, 592, 228)), ("rivals.", (598, 209, 652, 223))],
    [("A", (50, 249, 64, 263)), ("local", (68, 248, 108, 263)), ("answer", (114, 253, 174, 263))],
    [
        ("Smaller", (51, 281, 103, 293)),
        ("operators", (108, 284, 170, 297)),
        ("moved", (175, 281, 220, 293)),
        ("faster", (226, 281, 263, 293)),
        ("than", (267, 281, 296, 293)),
        ("their", (301, 281, 332, 293)),
        ("larger", (337, 281, 376, 297)),
        ("rivals.", (380, 281, 420, 293)),
    ],
    [
        ("The", (50, 307, 76, 319)),
        ("council", (81, 307, 130, 319)),
        ("expects", (135, 309, 186, 323)),
        ("the", (190, 307, 210, 319)),
        ("project", (216, 308, 262, 323)),
        ("to", (267, 310, 280, 319)),
        ("pay", (285, 311, 308, 323)),
        ("for", (314, 307, 333, 319)),
        ("itself", (338, 307, 371, 319)),
        ("by", (375, 307, 392, 323)),
    ],
    [
        ("Published", (51, 338, 120, 350)),
        ("23", (125, 338, 142, 350)),
        ("May", (148, 338, 177, 353)),
        ("2025", (182, 338, 216, 350)),
    ],
]


def test_a_paragraph_continued_in_the_next_column_is_not_refuted():
    """The paragraph's last word "2029." stands over the next CSS column; its best read ended at
    "by" (0.95): a "no". A best read that is the string's start, with the rest opening a column to
    its right, is withheld (``unread_places.continued_in_next_column``)."""
    q = (
        'Does the text under the "A local answer" heading read exactly "Smaller operators moved faster than their '
        'larger rivals. The council expects the project to pay for itself by 2029."?'
    )
    v = verdict(q, lines_of(COLUMNS), (900, 560))
    assert v.answer == "withheld", v.reason
    # "2029." under a line just over it (not a column's first line) continues nothing: "no"
    low = [[(t, (b[0], b[1] + 90, b[2], b[3] + 90)) for t, b in ws] if ws[0][0] == "2029." else ws for ws in COLUMNS]
    assert verdict(q, lines_of(low), (900, 560)).answer == "no"
