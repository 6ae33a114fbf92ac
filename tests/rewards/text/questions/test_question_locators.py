"""Every locator phrase of a question is represented in the spec or handed to a VLM (issue 17).

Questions are issue 17's examples, and phrasings of the shared BizGenEval subset and of the
development half of microsoft/BizGenEval (MIT; ``scripts/compiler_coverage.py --split id-hash``,
half 0), with their row ids.
"""

from rewards.text.questions.question_compiler import Anchor, ElementSpec, RoleAnchor, TextSpec, compile_question


def spec(question):
    return compile_question(question)


def test_issue_breakfast_title_keeps_its_locators():
    s = spec(
        "Does the large main title word located at the top-center of the menu, between the drawing of a lidded drink "
        'cup on the left and the donut on the right, read exactly "BREAKFAST"?'
    )
    # the title is represented (the largest type, whole text "BREAKFAST"): "BREAKFAST COMBOS" is not it
    assert s.text.element == ElementSpec("title", whole=True, phrase="large main title word")
    assert s.text.locators == ("large main title word",)
    # the drawings are no text: only a VLM can say where they are; "on the left" inside "between" is no region
    assert s.text.region is None
    assert s.vlm_parts == (
        "locator 'located at the top-center of the menu'",
        "locator 'between the drawing of a lidded drink cup on the left and the donut on the right'",
    )
    assert not s.decidable  # the OCR judge can say "no", never "yes"


def test_axis_titles():
    s = spec("Is the y-axis labeled exactly 'Users (thousands)'?")
    assert s.text == TextSpec(
        ("Users (thousands)",), element=ElementSpec("axis_title", axis="y", phrase="y-axis"), locators=("y-axis",)
    )
    assert s.decidable
    assert spec('Is the vertical axis title exactly "Revenue (USD)"?').text.element.axis == "y"
    s = spec('In panel (b), does the x-axis title read exactly "Time (s)"?')
    assert s.text.element == ElementSpec("axis_title", axis="x", phrase="x-axis title")
    assert s.vlm_parts == ("locator 'In panel (b)'",)  # which panel: code cannot see panels


def test_cards_by_ordinal_and_by_name():
    s = spec('Does the second KPI card from the left read exactly "18,450"?')
    assert s.text.element == ElementSpec("card", 2, phrase="second KPI card from the left")
    assert s.text.region is None and s.decidable  # "from the left" is an order, not the left of the image
    assert spec('Does the second KPI card from the right read exactly "18,450"?').text.element.ordinal == -2
    s = spec('In the NPS card, does the value read exactly "72"?')
    assert s.text.element == ElementSpec("whole", container="NPS", phrase="value")
    assert s.text.locators == ("value", "In the NPS card") and s.decidable
    s = spec("In the 'Revenue' tile, does the value read exactly '18,450'?")
    assert s.text.element.container == "Revenue" and s.text.anchors == (Anchor("Revenue", "context"),)
    # "the KPI card" names a kind, not one card: no container, the enclosing box is checked
    s = spec('In the KPI card, does the value read exactly "72"?')
    assert s.text.element.container is None and s.text.in_box


def test_table_cell_by_row_and_column():
    s = spec("Does the cell in the 'Q2' row and 'Revenue' column read exactly '5'?")
    assert s.text.anchors == (Anchor("Q2", "same_row"), Anchor("Revenue", "same_column"))
    assert s.text.element == ElementSpec("table_cell", row="Q2", column="Revenue", phrase="cell")
    assert s.decidable


def test_bullets_and_list_items():  # dev row 84, question 1
    s = spec(
        "Does the first bullet point in the center-left area, directly below the title and above the two equations, "
        "read exactly 'Output of network can be written as follows, with k indexing the two output units:'?"
    )
    assert s.text.element == ElementSpec("bullet", 1, phrase="first bullet point")
    assert s.text.region == "left"  # "directly below the title": an anchor named by its role (issue 31)
    assert s.text.locators == ("first bullet point", "in the center-left area", "directly below the title")
    assert s.text.role_anchors == (RoleAnchor("title", "directly_below", "directly below the title"),)
    assert s.vlm_parts == ("locator 'above the two equations'",)
    assert spec('Does the last bullet read exactly "Ship it"?').text.element == ElementSpec(
        "bullet", -1, phrase="last bullet"
    )
    s = spec('In the same ordered list, does the third item read exactly "Pay"?')
    assert s.text.element == ElementSpec("list_item", 3, phrase="third item")
    assert s.vlm_parts == ("locator 'In the same ordered list'",)  # which list: context code cannot see


def test_reads_exactly_is_whole_contains_is_not():
    assert spec('Does the footer contain "Source: BLS"?').text.element == ElementSpec(
        "footer", whole=False, phrase="footer"
    )
    # dev row 325, question 12: the legend holds the label, and "the exact label" is its whole text
    s = spec("Does the legend contain the exact label 'Circle = 2013'?")
    assert s.text.element == ElementSpec("legend_entry", whole=True, phrase="legend") and s.decidable
    s = spec('Does the subtitle start with "Quarterly"?')
    assert s.text.element == ElementSpec("subtitle", whole=False, phrase="subtitle")
    assert s.vlm_parts == ("claim 'start with'",)  # containment is necessary; the start is not checked


def test_places_of_the_image_are_represented():
    s = spec('Does the footnote at the bottom-left of the slide read exactly "Source: internal data"?')
    assert s.text.region == "bottom_left" and s.text.element.role == "footer"
    assert s.text.locators == ("footnote", "at the bottom-left of the slide") and s.decidable
    # dev row 23, question 0: the page header is an element, not a place of the image
    s = spec(
        "Does the single line of logo text located at the very top-left of the page header read exactly: "
        '"Graphivy Studio"?'
    )
    assert s.text.region == "top_left"
    assert s.vlm_parts == ("locator 'of logo text'", "locator 'located at the very top-left of the page header'")


def test_locators_relative_to_objects_are_a_vlms():
    s = spec('Does the label beneath the eleventh bottle from the left read exactly "1915"?')
    assert s.text.region is None  # "from the left" counts bottles; it is no place of the image
    assert s.vlm_parts == ("locator 'beneath the eleventh bottle from the left'",)
    s = spec(  # dev row 148, question 3
        "Does the single-line explanatory text located directly below the first-step heading, still to the right "
        'of the lightbulb illustration, read exactly "[STEP_1_SUBTEXT]"?'
    )
    # issue 31: "explanatory text" is a generic role (the string read as a whole element); the relations are a VLM's
    assert s.text.element == ElementSpec("whole", phrase="single-line explanatory text") and s.vlm_parts == (
        "locator 'located directly below the first-step heading'",
        "locator 'still to the right of the lightbulb illustration'",
    )
    s = spec('Is the text "Q3" inside the blue button?')
    assert s.vlm_parts == ("locator 'inside the blue button'",)  # the button's colour is not checked


def test_unknown_subject_words_are_never_guessed():
    assert spec('Does the large faint word read exactly "DRAFT"?').vlm_parts == ("locator 'large faint word'",)
    # a generic role may not hold a claim code does not check: a size, a colour, a shape, an ordinal (issue 31)
    assert spec('Does the large faint label read exactly "DRAFT"?').vlm_parts == ("locator 'large faint label'",)
    assert spec('Does the circular step label read exactly "A"?').vlm_parts == ("locator 'circular step label'",)
    assert spec('Does the first-row site label read exactly "A"?').vlm_parts == ("locator 'first-row site label'",)
    assert spec('Does the chart include the slice labels "A", "B"?').text.element is None


def test_every_locator_phrase_is_listed():
    """Each question's words before the required string are the subject, an anchor phrase, a place
    or a VLM locator: none of the content words vanishes (subset and dev-half phrasings)."""
    questions = [
        "Does the two-line main hero heading in the center-left of the page, directly below the welcome bar, read "
        'exactly line by line: "Dr. Nakhoda" on the first line and "Skin Institute" on the second line?',  # dev 23.2
        "Does the button label in the bottom-left of the layout, under the services description paragraph, read "
        'exactly: "Book Now"?',  # dev 23.9
        'Does the heading centered at the top of the right white panel, aligned horizontally with "MAIN COURSE" on '
        'the left, read exactly "DESSERT"?',
    ]
    for q in questions:
        s = spec(q)
        listed = " ".join((*s.text.locators, *s.vlm_parts, *(a.text for a in s.text.anchors))).lower()
        head = q.lower().split(' "')[0].split("exactly")[0]
        for word in ("hero", "welcome", "services", "description", "white", "panel", "layout", "bottom-left"):
            if word in head:
                assert word in listed, (word, q)


def test_places_of_other_elements_are_no_region():
    s = spec('Does the heading to its right read exactly "Connect and restore"?')  # dev row 154, question 19
    assert s.text.region is None and s.vlm_parts == ("locator 'to its right'",)
    s = spec(  # dev row 146, question 8: "on the right" is where the DRINKS heading stands
        "Does the left-column heading in the lower half of the menu, positioned above the list of savory items and "
        'horizontally aligned with the "DRINKS" heading on the right, read exactly "SAVORY SNACKS"?'
    )
    assert s.text.region is None
    assert s.text.locators == ("aligned with the 'DRINKS' heading",) and "locator 'on the right'" in s.vlm_parts
    # a box named by its kind or colour is not any enclosing box
    s = spec('Is the price "$25" in the narrow product card?')
    assert s.text.locators == () and s.vlm_parts == ("locator 'price'", "locator 'in the narrow product card'")


def test_right_to_left_is_left_to_right_reversed():  # dev row 22, question 2
    s = spec("Do the three labels read exactly, from right to left: 'Use', 'Become', and 'Attend'?")
    assert s.text.texts == ("Attend", "Become", "Use") and s.text.arrangement == "left_to_right"
    assert s.text.region is None and s.decidable


def test_line_positions_are_form_only_for_lines():
    s = spec('Does the title read exactly "Foo" on the first line and "Bar" on the second line?')
    assert s.text.arrangement == "lines" and s.decidable  # the lines form checks both positions
    s = spec('Does the title read exactly "Foo" on its second line?')  # one string: which line is a locator
    assert s.vlm_parts == ("locator 'on its second line'",)


def test_legend_holds_its_labels():  # subset rows 320 and 321
    assert spec('Does the legend include the label text "France"?').text.element == ElementSpec(
        "legend_entry", whole=True, phrase="legend"
    )
    assert spec('Does the legend include "France"?').text.element == ElementSpec(
        "legend_entry", whole=False, phrase="legend"
    )
    # "the word", "the phrase" are parts of longer lines as often as lines of their own: no whole element
    s = spec('Does the phrase describing the system read exactly "primary care"?')  # subset row 81, question 3
    assert s.text.element is None and s.vlm_parts == ("locator 'describing the system'",)


def test_include_the_exact_text_is_containment():  # dev rows 324 and 396
    s = spec("Does the subtitle include the exact text “boxes show role holders and groups”?")
    assert s.text.element == ElementSpec("subtitle", whole=False, phrase="subtitle")  # a fragment of the subtitle
    s = spec("Does the legend include the line exactly 'Blue = Response'?")
    assert s.text.element == ElementSpec("legend_entry", whole=True, phrase="legend")


def test_edge_words_in_the_subject():
    # the title is at the top anyway (tests/rewards/text/page/test_grounding.py, item 381 of the bundled example)
    assert spec('Is the top title exactly "Ablation Table"?').text.element == ElementSpec("title", phrase="top title")
    assert spec('Does the top bullet read exactly "A"?').text.element == ElementSpec("bullet", 1, phrase="top bullet")
    s = spec('Does the lower label read exactly "A"?')  # "lower" made the region: the place is checked
    assert s.text.region == "bottom" and s.text.element == ElementSpec("whole", phrase="lower label")
    items = spec('Do the items read exactly, in order: "A", "B"?')
    assert items.text.element == ElementSpec("list_item", phrase="items")
    assert spec('Does the item read exactly "A"?').vlm_parts == ("locator 'item'",)  # which item: a VLM's


def test_quotes_that_name_the_holder():  # tests/rewards/text/page/test_grounding.py's table page phrasings
    s = spec('Does the value in the row labeled "Hydro" read exactly "40"?')
    assert s.text.anchors == (Anchor("Hydro", "same_row"),) and s.decidable
    assert s.text.locators == ("value", "in the row labeled 'Hydro'")
    s = spec('In the menu with the item "Blog", does the first item read exactly "Home"?')
    assert s.text.element == ElementSpec("list_item", 1, phrase="first item") and s.decidable
    # the anchor names the table, but "under the table" is a place no field checks
    s = spec('Does the note under the table with the year "2024" read exactly "Source: 2024 survey"?')
    assert s.vlm_parts == ("locator 'under the table'",)
    s = spec('Is the navigation item located between "About" and "Blog" the single word "Programs"?')
    assert s.text.element == ElementSpec("list_item", phrase="navigation item") and s.decidable


def test_a_quote_naming_the_cell_is_its_column_label():
    s = spec("In the 'Q1' row, does the 'Visits' cell read exactly '925'?")
    assert s.text.element == ElementSpec("table_cell", row="Q1", column="Visits", phrase="the 'Visits' cell")
    assert s.vlm_parts == () and "the 'Visits' cell" in s.text.locators
    # without a row there is no cell to find: the quote stays a context anchor, "cell" a VLM's
    assert spec("Does the 'Visits' cell read exactly '925'?").vlm_parts == ("locator 'cell'",)


def test_from_the_left_after_the_holder_is_the_ordinals_direction_not_a_place():
    s = spec('Is the third item of the navigation menu from the left exactly "Results"?')
    assert s.text.region is None and s.vlm_parts == ()
    assert s.text.element == ElementSpec("list_item", 3, phrase="third item") and "from the left" in s.text.locators
    s = spec('Is the second item of the top menu from the right exactly "Blog"?')
    assert s.text.element.ordinal == -2 and s.text.region is None


def test_generic_roles_are_the_string_read_as_a_whole_element():
    """Issue 31: a generic role with no ordinal or relation ("the country label", "a CEO box") is the
    quoted string read as a whole element; "includes the country label 'X'" names the label's whole text."""
    s = spec("Does the chart include the country label 'China'?")  # dev half phrasing
    assert s.decidable and s.text.element == ElementSpec("whole", phrase="the country label")
    assert s.text.locators == ("the country label",)
    # the object names another element than the subject's role: the axis's tick label, not its title
    s = spec("Does the x-axis include a tick label '1950'?")
    assert s.vlm_parts == ("locator 'x-axis tick label'",) and s.text.element is None
    s = spec("Is there a CEO box labeled “Atle Sivertsen”?")
    assert s.decidable and s.text.element == ElementSpec("whole", phrase="CEO box")
    s = spec("Does the callout label contain 'final save'?")  # containment: the string anywhere, no element
    assert s.decidable and s.text.element is None and s.text.locators == ("callout label",)
    # a holder of several strings claims they stand together: a VLM's
    s = spec("Does the guideline box contain exactly 'A' and 'B'?")
    assert "locator 'guideline box'" in s.vlm_parts


def test_a_side_named_on_a_table_or_section_is_that_side_of_the_image():
    s = spec('In the left table, does the header read exactly "Dose"?')  # dev half phrasing
    assert s.decidable and s.text.region == "left" and "In the left table" in s.text.locators
    assert spec('In the upper central table, does the header read exactly "Dose"?').vlm_parts  # "central": a VLM's


def test_anchors_named_by_their_role():
    s = spec('Does the tagline positioned just below the main heading read exactly "X"?')
    assert s.decidable and s.form == "relation"
    assert s.text.role_anchors == (RoleAnchor("title", "directly_below", "positioned just below the main heading"),)
    assert spec('Does the note just above the footer read exactly "X"?').text.role_anchors[0].role == "footer"
    assert spec('Does the line below the heading read exactly "X"?').vlm_parts == ("locator 'below the heading'",)


def test_an_axis_that_holds_a_label_asks_for_a_tick_label_not_its_title():
    """Dev half phrasings: the axis holds the label; the page rule "x-axis tick label" places it
    (``rewards.text.page.locators``), the axis title finder is not asked."""
    s = spec('Does the y-axis show a tick label "0.50"?')
    assert s.vlm_parts == ("locator 'y-axis tick label'",) and s.text.element is None
    s = spec('Does the x-axis include the category label "Method A"?')
    assert s.vlm_parts == ("locator 'x-axis tick label'",) and s.text.texts == ("Method A",)
    # "the label" of an axis may be its title or a tick label: either (the rule "x-axis label")
    assert spec('Does the y-axis include the label "0.5"?').vlm_parts == ("locator 'y-axis label'",)
    # the axis named by its title stays the axis title
    s = spec('Is the y-axis labeled "Revenue"?')
    assert s.decidable and s.text.element.role == "axis_title" and s.text.element.axis == "y"


def test_the_main_section_heading_is_a_heading_not_the_page_title():
    s = spec('Does the main section heading in the bottom-right quadrant read exactly "Our Work"?')
    assert s.decidable and s.text.element.role == "heading" and s.text.region == "bottom_right"
    assert spec('Does the main heading read exactly "Our Work"?').text.element.role == "title"


def test_a_quoted_table_row_with_pipes_is_its_cells_in_one_row():
    """Dev half phrasing: a row's cells quoted with " | " between them; no page prints the pipes."""
    s = spec('Does the standings table have a header row that reads exactly "Pos | Equipo | PJ | PTS"?')
    assert s.text.texts == ("Pos", "Equipo", "PJ", "PTS") and s.text.arrangement == "row"
    s = spec("In the left table, does the top header row read exactly '[blank] | [blank] | 2019 | 2024 | Δ'?")
    assert s.text.texts == ("2019", "2024", "Δ")
    # no row, table, cell or column named: a pipe printed in a line
    assert spec('Does the card show the line "ViX | Youtube"?').text.texts == ("ViX | Youtube",)


def test_a_locator_before_a_plain_read_is_not_the_quotes_anchor_phrase():
    """Without "exactly", "below the title read 'X'" was taken for an anchor's relation phrase and
    listed as represented, though no anchor checks it: any "X" on the page passed (tester's chart,
    a subtitle set to the right of its title)."""
    for verb in ("read", "read exactly"):
        s = spec(f'Does the text directly below the title {verb} "X"?')
        assert s.text.role_anchors == (RoleAnchor("title", "directly_below", "directly below the title"),)
        assert spec(f'Does the subtitle to the right of the title {verb} "X"?').vlm_parts == (
            "locator 'to the right of the title'",
        )
    assert spec('Is the line directly below the title exactly "X"?').text.role_anchors == (  # BizGenEval phrasing
        RoleAnchor("title", "directly_below", "directly below the title"),
    )
    assert spec('Does the heading directly below the word "MENU" read "X"?').text.anchors == (
        Anchor("MENU", "directly_below"),
    )
