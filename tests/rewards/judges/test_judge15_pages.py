"""Fewer false "no" and more "yes" on a ninth and a tenth tester's pages (issue 31, judge15): each
class of false "no" or withheld true question found on the dev split of
``benchmarks/fresh9_pages.py`` and ``benchmarks/fresh10_pages.py``, on the real page drawn by the
set's templates and judged by the real OCR judge, each test naming the cause, the general fix, and a
wrong string that stays refuted (or is not confirmed)."""

import shutil

import pytest
from test_judge13_pages import page
from test_tester10_pages import verdicts

from benchmarks import fresh9_pages, fresh10_pages

needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed")
needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")

CELL = "In the '{}' row, does the 'EUR' cell read exactly \"{}\"?"


@pytest.fixture(scope="module")
def receipt(tmp_path_factory):
    """The ninth tester's receipt of seed 13 (Chromium, Liberation Mono): items over right-aligned
    prices under an "EUR" column label, then "Subtotal", "VAT 20%" (3.96) and "Total"."""
    return page(fresh9_pages.SET, "receipt", 13, tmp_path_factory.mktemp("receipt") / "receipt.png")


@needs_chromium
@needs_tesseract
def test_a_price_read_in_part_in_its_cell_is_read_again_there(receipt):
    """The page passes read the right-aligned monospaced prices "3.90" and "2.60" as "90" and "60"
    (their "3." and "2." dropped, confidence 96); the best match of "3.90" was the VAT row's "3.96"
    and its strip was read again, never the cell's: the correct prices were refuted
    (fresh9-receipt-13 and -31: 3 false "no" on dev). The place where the asked row crosses the
    asked column is read again as well (``ocr._cell_place``, a quarter line up and down: the next rows
    are other cells): confirmed; a price one digit off, and the VAT's "3.96" asked in an item's
    row, still refuted."""
    asked = [
        ("Free range eggs", "3.90"),
        ("Dish soap", "2.60"),
        ("Free range eggs", "3.96"),
        ("Dish soap", "2.68"),
    ]
    assert verdicts(receipt, [CELL.format(*a) for a in asked]) == ["yes", "yes", "no", "no"]


@needs_chromium
@needs_tesseract
def test_a_bold_card_heading_is_no_line_of_the_text_under_it(tmp_path):
    """A roadmap card sets its name bold (18 px) over its text (13 px); OCR's boxes pad small type
    by a pixel or two, so "EU region" measured 18.6 em and "Data hosted in" 16.7, one size, and
    the heading was read into the text's block: the text under it was refuted as "read only inside
    longer text ('EU region Data hosted in Frankfurt')" (fresh9-roadmap-23's false "no" on dev,
    here on seed 5; the report's "roadmap text read into a heading line"). Lines of about one size
    but for a few percent join one block only when their measured weights do not differ
    (``page_lines._Page._joins``): confirmed; the text one letter off still refuted."""
    image = page(fresh9_pages.SET, "roadmap", 5, tmp_path / "roadmap.png")
    q = 'Does the text under the "{}" heading read exactly "{}"?'
    asked = [("EU region", "Data hosted in Frankfurt"), ("EU region", "Data hosted in Frankfort")]
    assert verdicts(image, [q.format(*a) for a in asked]) == ["yes", "no"]


@needs_chromium
@needs_tesseract
def test_a_cell_asked_by_a_column_label_the_page_does_not_show(tmp_path):
    """A spec sheet's table has no header row, a label and its one value per row; the questions ask
    "the 'Value' cell" of a row, and "anchor 'Value' not read" withheld every cell (fresh10
    spec sheets: 12 withheld on dev). A column label read nowhere, nor anything close, whose row
    label is read once with one cell right of it, is that cell (``unlabelled_column``):
    confirmed; another row's value asked there is not confirmed, a value one digit off refuted."""
    image = page(fresh10_pages.SET, "spec_sheet", 6, tmp_path / "spec.png")
    q = "In the '{}' row, does the 'Value' cell read exactly \"{}\"?"
    asked = [
        ("Connectivity", "Bluetooth 5.3"),
        ("Noise level", "24 dB"),
        ("Dimensions", "24 dB"),
        ("Noise level", "34 dB"),
    ]
    assert verdicts(image, [q.format(*a) for a in asked]) == ["yes", "yes", "withheld", "no"]


@needs_tesseract
def test_a_line_legends_handle_drawn_left_of_its_entry(tmp_path):
    """A dual-axis chart's legend shows each series by its line's handle: a solid stroke with a
    round marker, read "—®" (no handle spelling), and a dashed stroke with a square marker, read as
    lines of their own ("— i", "-"); neither was a swatch, so the legend finder found no entry and
    both entries were withheld (fresh10-dual_axis-47: 3 withheld on dev). A stroke of one colour
    1.4 to 3.2 ems long, at the text's middle, ending just left of it and clear at its left end
    (no grid line), opens a legend entry (``legend_marks.stroke_left``): both confirmed; a word of
    the title asked as a legend entry still refuted, an entry one letter short too."""
    image = page(fresh10_pages.SET, "dual_axis", 47, tmp_path / "dual.png")
    q = 'Does the legend include the label "{}"?'
    asked = ["Orders shipped", "Returns", "Orders", "Return"]
    assert verdicts(image, [q.format(t) for t in asked]) == ["yes", "yes", "no", "no"]


@needs_chromium
@needs_tesseract
def test_a_right_aligned_total_stands_in_its_column(tmp_path):
    """A receipt's total "32.64" is set bold and larger, right-aligned under the "EUR" label: its
    centre lies left of the label, so it was "read, but not context 'EUR'" and the correct total
    refuted (fresh9-receipt-40: 2 false "no" on dev, the report's "a total not in the 'EUR'
    column"). A number whose right edge is the label's, with only numbers between, stands in the
    label's column (``relations.down_number_column``): confirmed; the total asked in the
    "Subtotal" row, and a total with two digits swapped, still refuted."""
    image = page(fresh9_pages.SET, "receipt", 40, tmp_path / "receipt.png")
    asked = [("Total", "32.64"), ("Subtotal", "32.64"), ("Total", "32.46")]
    assert verdicts(image, [CELL.format(*a) for a in asked]) == ["yes", "no", "no"]


@needs_tesseract
def test_a_boxplots_box_read_as_letters_is_no_title(tmp_path):
    """A box plot's box and whisker cap are read "LT" at confidence 32, a "line" larger than the
    chart's title and inside the top band: it was taken for the title and the real title was left
    to a VLM (fresh10 box plots: 4 withheld on dev). A line of at most three letters or digits
    read under 60 throughout is no title candidate (``page_lines.title_sure``): the title
    confirmed; the callout asked as the title, and a title one word off, refuted."""
    image = page(fresh10_pages.SET, "boxes", 18, tmp_path / "boxes.png")
    q = 'Is the chart title exactly "{}"?'
    asked = ["Waiting times in October", "Shortest median: 29 min", "Waiting times in November"]
    assert verdicts(image, [q.format(t) for t in asked]) == ["yes", "no", "no"]


@needs_tesseract
def test_an_entry_read_unsure_where_it_stands_is_not_refuted(tmp_path):
    """An area chart's legend, read again where a typo ("Biomss") changed its row, reads the yellow
    swatch and "Wind" as one word '"Wind' at confidence 0, its box over the swatch: the line no
    longer opened with a swatch, and the correct entry "Wind" was refuted, "the legend entry reads
    'Hydro' / 'Biomss'" (fresh9-area_top-36 and -45, defect pages: 2 false "no" on dev). An element
    "no" whose string's own words are read under 80 where it stands is withheld
    (``ocr_doubt._occurrence_conf``); the misspelt entry, and the title's word asked as an entry,
    still refuted."""
    from PIL import Image

    from benchmarks import tester_set

    doc = tester_set.make_doc(fresh9_pages.SET, 36, "dev", tmp_path, None)
    clean, defect = (Image.open(doc.pages[k].image_path).convert("RGB") for k in ("clean", "defect"))
    verdicts(clean, ['Does the legend include the label "Wind"?'])  # the defect page is read from this one
    q = 'Does the legend include the label "{}"?'
    asked = ["Wind", "Biomass", "Electricity"]
    assert verdicts(defect, [q.format(t) for t in asked]) == ["withheld", "no", "no"]


@needs_tesseract
def test_a_wedge_beside_its_label_is_no_legend_handle(tmp_path):
    """A donut's wedge label "Tea" stands right of the orange wedge; in the rows of the label the
    wedge's colour runs 1.4-3.2 ems and ends just left of it, like a line handle, and "Tea" (left
    out of the legend by a "missing" defect) was confirmed as a legend entry: a false "yes" on the
    engine documents' dev split (matplotlib-donut-4). A handle is thin: over its columns its colour
    spans at most 1.2 em, looked at 1.5 em up and down (``legend_marks.stroke_left``): refuted;
    the legend's own entry still confirmed."""
    from PIL import Image

    from documents.engines.split import make_doc

    doc = make_doc("matplotlib", 4, "dev", tmp_path)
    clean, defect = (Image.open(doc.pages[k].image_path).convert("RGB") for k in ("clean", "defect"))
    verdicts(clean, ['Does the legend include the label "Tea"?'])  # the defect page is read from this one
    asked = ['Does the legend include the label "Tea"?', 'Does the legend include the label "Juice"?']
    assert verdicts(defect, asked) == ["no", "yes"]
