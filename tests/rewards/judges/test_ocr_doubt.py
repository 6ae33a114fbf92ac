"""A "no" needs the same certainty as a "yes" (rewards.judges.ocr_doubt, issue 31): synthetic OCR
lines with tesseract confidences, no tesseract run."""

from rewards.judges.ocr import OCRJudge
from rewards.judges.ocr_doubt import MIN_CONF, doubt_no
from rewards.rubric import Check
from rewards.text.ocr.text_match import Line, Word, find_matches, normalize, words_conf
from rewards.text.questions.question_compiler import compile_question

SIZE = (800, 600)


def line(text: str, x: int, y: int, conf: float = 95.0, h: int = 20) -> Line:
    words, cx = [], x
    for t in text.split():
        words.append(Word(t, (cx, y, cx + 11 * len(t), y + h), conf))
        cx += 11 * len(t) + 8
    return Line(tuple(words))


def verdict(question: str, lines: list[Line], vlm_follows: bool = False):
    chk = Check("1", question, spec=compile_question(question))
    return OCRJudge(vlm_follows=vlm_follows).judge_lines(lines, SIZE, chk)


def test_word_confidence_takes_no_part_in_equality():
    assert Word("a", (0, 0, 1, 1), 12.0) == Word("a", (0, 0, 1, 1), 97.0)
    lines = [line("Quarterly Review", 10, 10, conf=71.0)]
    assert words_conf(lines, ((0, 0), (0, 1))) == 71.0
    assert words_conf([Line((Word("x", (0, 0, 1, 1)),))], ((0, 0),)) == 100.0  # placed text: confident


def test_lone_separators_fold_to_one_middle_dot():
    assert normalize("Made in Lisbon · Since 2014") == normalize("Made in Lisbon - Since 2014")
    assert normalize("March 28 . 10 AM : 6 PM") == normalize("March 28 · 10 AM – 6 PM") == "March 28 · 10 AM · 6 PM"
    assert normalize("Privacy « Terms - Cookies") == "Privacy · Terms · Cookies"  # a small dot read as «
    assert normalize("COVID-19 3.5 a/b") == "COVID-19 3.5 a/b"  # inside a word: kept
    ms = find_matches("Privacy · Terms · Cookies", [line("Privacy : Terms - Cookies", 10, 500)], *SIZE)
    assert ms[0].found


def test_a_confident_near_miss_is_no_a_doubtful_one_withheld():
    q = 'Does the main title at the top of the slide read exactly "Quarterly Business Review"?'
    sure = verdict(q, [line("Quarterly Busiqess Review", 40, 20, conf=93.0, h=40)])
    assert sure.answer == "no" and "doubt" not in sure.evidence
    low = [line("Quarterly Busiqess Review", 40, 20, conf=MIN_CONF - 20, h=40)]
    assert verdict(q, low).answer == "no"  # without a VLM: tesseract is least sure of misspelt words
    unsure = verdict(q, low, vlm_follows=True)
    assert unsure.answer == "withheld" and unsure.reason.startswith("OCR does not refute")
    assert "low OCR confidence (60)" in unsure.evidence["doubt"]


def test_a_string_not_read_with_a_vlm_only_locator():
    # "beside the calendar icon": a VLM locator ("the date line" alone is a generic role since issue 31)
    q = 'Does the date line beside the calendar icon read exactly "March 28 · 10 AM - 6 PM"?'
    lines = [line("Riverside Park", 40, 300, conf=96.0)]
    # nothing close read: absent for judge=ocr, perhaps unreadable: the VLM looks when it follows
    assert verdict(q, lines).answer == "no"
    assert verdict(q, lines, vlm_follows=True).answer == "withheld"
    # a confident near miss: judge=ocr refutes it, judge=ocr_vlm hands it to the VLM
    near = [line("March 28 · 10 AM - 8 PM", 40, 300, conf=96.0)]
    assert verdict(q, near).answer == "no"
    assert verdict(q, near, vlm_follows=True).answer == "withheld"


def test_nothing_close_and_no_vlm_part_stays_no_without_a_vlm():
    q = 'Does the footer read exactly "Privacy · Terms · Cookies"?'
    lines = [line("Quarterly Business Review", 40, 20, h=40), line("Made with care", 40, 560, h=12)]
    assert verdict(q, lines).answer == "no"  # nothing like it on the page: the element is gone
    assert verdict(q, lines, vlm_follows=True).answer == "withheld"


def test_an_anchor_not_read_is_withheld_a_relation_failed_is_no():
    q = 'Is the value label above the "South" bar "42"?'
    page = [line("42", 100, 100), line("North", 100, 400)]
    # nothing like 'South' on the page: the bar the question names is not found, so not read
    assert verdict(q, page).answer == "withheld"
    no_anchor = verdict(q, page, vlm_follows=True)
    assert no_anchor.answer == "withheld" and "anchor 'South' not read" in no_anchor.evidence["doubt"]
    sure = verdict(q, [line("42", 100, 100), line("Sonth", 100, 400, conf=96.0)])  # a confident near miss
    assert sure.answer == "withheld" and "anchor 'South' not read" in sure.evidence["doubt"]
    assert verdict('Is the value label above the "South" bar "24"?', page).answer == "no"  # '24' is read nowhere
    misread = verdict(q, [line("42", 100, 100), line("Sonth", 100, 400, conf=52.0)])
    assert misread.answer == "withheld"
    below = verdict(q, [line("South", 100, 100), line("42", 100, 400)])  # read, but below its anchor
    assert below.answer == "no"


def test_a_string_of_a_vlm_only_locator_does_not_refute():
    class D:  # a TextDecision whose relation failed for the group name the locator quotes
        rule = "anchor"
        anchors = [{"text": "2024", "found": True}]
        records = [{"text": "Tea", "rule": "anchor"}]

    assert doubt_no(D, ["locator \"in the 'Tea' group\""], [], SIZE) is not None
    assert doubt_no(D, [], [], SIZE) is None


def test_an_element_failure_with_an_unresolved_locator_is_withheld():
    class D:
        rule = "element"
        anchors = []
        records = [{"text": "Visits", "rule": "element", "element": {"text": "Segment", "conf": 95.0}}]

    assert "only a VLM can check" in doubt_no(D, ["locator 'of the third column'"], [], SIZE)
    assert doubt_no(D, [], [], SIZE) is None
    D.records = [{"text": "Visits", "rule": "element", "element": {"text": "Vlslts", "conf": 41.0}}]
    assert "low OCR confidence (41)" in doubt_no(D, [], [], SIZE)


def test_an_item_under_a_heading_is_counted_in_that_section_only():
    menu = [
        line("Breakfast", 60, 180, h=34), line("Drinks", 420, 180, h=34),
        line("Pancake Stack", 60, 225), line("Sparkling Water", 420, 225),
        line("Granola Bowl", 60, 256), line("Iced Latte", 420, 256),
        line("Eggs Benedict", 60, 287), line("Fresh Lemonade", 420, 287),
        line("Desserts", 60, 340, h=34), line("Mains", 420, 340, h=34),
        line("Tiramisu", 60, 385), line("Chef's Special", 420, 385),
        line("Apple Pie", 60, 416), line("Grilled Salmon", 420, 416),
        line("Lemon Tart", 60, 447), line("Chicken Curry", 420, 447),
    ]  # fmt: skip
    assert verdict('Is the third item under the "Drinks" heading "Fresh Lemonade"?', menu).answer == "yes"
    assert verdict('Is the third item under the "Drinks" heading "Lemon Tart"?', menu).answer == "no"
    assert verdict('Is the third item under the "Drinks" heading "Chicken Curry"?', menu).answer == "no"


def test_a_value_label_above_a_bar_is_measured_to_its_own_category():
    bars = [line("55", 100, 200), line("42", 300, 260), line("North", 88, 500), line("South", 288, 500)]
    assert verdict('Is the value label above the "South" bar "42"?', bars).answer == "yes"
    assert verdict('Is the value label above the "South" bar "55"?', bars).answer == "no"


def test_a_short_near_miss_under_an_unresolved_locator_is_another_elements():
    q = 'Is the "Water" slice labeled with the percentage "38%"?'  # the slice: only a VLM locates it
    wedges = [line("Water", 100, 100), line("18%", 300, 300, conf=96.0)]
    v = verdict(q, wedges)
    assert v.answer == "withheld" and "short near miss ('18%')" in v.evidence["doubt"]


def test_a_short_anchor_not_read_is_withheld():
    q = "In the 'Q1' row, does the 'Orders' cell read exactly \"2,279\"?"
    table = [
        line("Quarter Orders", 40, 40),
        line("2,279", 130, 60),
        line("Q2 1,204", 40, 80),
    ]  # tesseract dropped the lone "Q1"
    v = verdict(q, table)
    assert v.answer == "withheld" and "anchor 'Q1' not read" in v.evidence["doubt"]


def test_an_outlined_button_is_a_button():
    from PIL import Image, ImageDraw

    img = Image.new("RGB", SIZE, (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.rectangle([48, 341, 260, 382], fill=(250, 130, 10))  # a filled button
    d.rectangle([275, 340, 436, 382], outline=(250, 130, 10), width=2)  # an outlined one
    d.rectangle([40, 440, 400, 580], outline=(200, 200, 200), width=1)  # a card: more room than a label
    lines = [line("Start free trial", 70, 354, h=14), line("Get started", 299, 354, h=14), line("Fast setup", 60, 460)]
    lines += [line("Updated every 15 minutes.", 60, 500, h=14)]
    ask = lambda t: OCRJudge().judge_lines(  # noqa: E731
        lines, SIZE, Check("1", "q", spec=compile_question(f'Is there a button labeled exactly "{t}"?')), img
    )
    assert ask("Get started").answer == "yes"
    assert ask("Fast setup").answer == "no"


def test_an_outlined_button_is_measured_by_its_type_not_its_box():
    """Engine dev landing-20: "Learn more" (16 px type, no descender: an 11 px box) in a 39 px
    frame, 3.5 box heights, was no button: a false "no". Here a 43 px frame: 2.9 of its ems."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", SIZE, (245, 247, 250))
    ImageDraw.Draw(img).rectangle([217, 306, 343, 349], outline=(250, 130, 10), width=2)  # 12 px padding
    lines = [Line((Word("Learn", (241, 322, 282, 333), 96.0), Word("more", (286, 325, 321, 333), 96.0)))]
    ask = lambda t: OCRJudge().judge_lines(  # noqa: E731
        lines, SIZE, Check("1", "q", spec=compile_question(f'Is there a button labeled exactly "{t}"?')), img
    )
    v = ask("Learn more")  # no glyphs drawn here, so the m / rn look-alike check withholds the "yes"
    assert v.answer == "withheld" and v.evidence["rule"] == "all" and "look-alike" in v.reason, v.reason
    assert ask("Learn mode").answer == "no"


def test_a_short_word_near_miss_still_refutes():
    q = 'Is the second x-axis tick label from the left exactly "Fed"?'  # a VLM-only locator
    assert verdict(q, [line("Jan", 100, 500), line("Feb", 200, 500), line("Mar", 300, 500)]).answer == "no"


def test_a_lone_glyph_not_read_is_withheld():
    """A tester's vendor table: tesseract dropped the rating cell "B" and the row was a false "no"."""
    q = "Is there a row labeled exactly 'Bluepeak' with values '97.8%', '63 ms', and 'B'?"
    table = [line("Bluepeak 97.8% 63 ms", 40, 80)]  # the lone "B" at the row's end not read
    v = verdict(q, table)
    assert v.answer == "withheld" and "lone glyph" in v.evidence["doubt"]
    # a longer string not read still refutes
    assert verdict("Is there a row labeled exactly 'Bluepeak' with values '97.8%' and '64 ms'?", table).answer == "no"
    # asked alone, a glyph not read as a word of its own stays "no" (test_ocr_judge: "1" inside "1,206")
    assert verdict('Is the letter "B" shown?', table).answer == "no"
