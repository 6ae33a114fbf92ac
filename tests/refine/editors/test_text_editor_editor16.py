"""The eleventh tester's pages (``benchmarks/fresh11_pages.py``; issue 32, editor16): edits that
changed pixels outside their element on dev pages, by class, each on the real page the set's
templates draw."""

import shutil

import pytest
from editor_helpers import failed
from fresh11_drawn import changed_outside, draw

from refine.editors.text import TextEditor

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")


def inside(box, outer, pad: int = 0) -> bool:
    return (
        outer[0] - pad <= box[0] and outer[1] - pad <= box[1] and box[2] <= outer[2] + pad and box[3] <= outer[3] + pad
    )


@needs_tesseract
def test_a_swapped_axis_title_is_not_joined_to_the_tick_label_above_it(tmp_path):
    # dev diverging-0: "20 agreement Net (percentage points)", the x tick "20" and the title under
    # it, matched better than the title alone; the rewrite of both set the title over the tick
    # labels and erased "20". Then the title alone was centred under the tick label's foot, 60 px right.
    _, clean = draw("diverging", 0, tmp_path / "clean.png")
    start, _ = draw("diverging", 0, tmp_path / "start.png", {"xlabel": "agreement Net (percentage points)"})
    editor = TextEditor()
    out = editor.edit(start, "", failed('Is the x-axis label exactly "Net agreement (percentage points)"?'), 0)
    (act,) = editor.last_actions
    assert act["action"] == "replace", act
    assert act["was"] == "agreement Net (percentage points)"
    assert inside(act["inked"][0], clean["xlabel"], pad=1), (act["inked"], clean["xlabel"])
    assert changed_outside(out, start, clean["xlabel"], pad=2) == 0


FOOTER = "Top two clubs are promoted; the bottom club enters the play-off."


@needs_tesseract
@pytest.mark.parametrize(
    "seed, footer",
    [
        # dev league_table-5: the 12 px grey footer is read as "To", "jubs", ..., "enter", "the play-off.";
        # the last piece looked like the footer with its first words dropped and the whole footer was
        # written from its left edge, after its own first words (1782 px over the card's edge)
        (5, None),
        # dev league_table-14: the footer without "play-off." is read in pieces and not matched; the
        # whole footer was placed at the page's foot, a second, faint copy under the card (1636 px)
        (14, FOOTER.rsplit(" ", 1)[0]),
    ],
    ids=["read_in_pieces", "last_word_dropped"],
)
def test_a_footer_read_in_pieces_is_not_written_again(tmp_path, browser, seed, footer):
    texts = {"footer": footer} if footer is not None else None
    start, _ = draw("league_table", seed, tmp_path / "start.png", texts, browser)
    editor = TextEditor()
    out = editor.edit(start, "", failed(f'Does the footer read exactly "{FOOTER}"?'), 0)
    (act,) = editor.last_actions
    assert act["action"].startswith("skip: the page's last line"), act
    assert changed_outside(out, start, (0, 0, 0, 0), pad=0) == 0


@needs_tesseract
def test_a_label_set_in_capitals_is_not_retyped_in_the_case_of_the_check(tmp_path, browser):
    # dev recipe-4: the stat label "Cook" is set "COOK" by CSS text-transform and read "cook"; after
    # the judge's false "no" it was retyped "Cook" (272 px, and the card no longer reads as its siblings)
    start, boxes = draw("recipe", 4, tmp_path / "start.png", browser=browser)
    editor = TextEditor()
    out = editor.edit(start, "", failed('Is the KPI card "Cook" showing "45 min"?'), 0)
    cook = next(a for a in editor.last_actions if a["text"] == "Cook")
    assert cook["action"].startswith("skip: on the page in capitals"), cook
    assert changed_outside(out, start, (0, 0, 0, 0), pad=0) == 0


@needs_tesseract
@pytest.mark.parametrize(("name", "seed"), [("slope", 10), ("diverging", 0)])
def test_a_missing_source_note_under_a_title_centred_over_the_plot_goes_in_the_figure_corner(tmp_path, name, seed):
    # dev slope-10: matplotlib's fig.text note sits at the figure's bottom-left corner; the editor
    # set it on the left edge of the title centred over the axes, 250 px right (1014 px outside its box)
    _, clean = draw(name, seed, tmp_path / "clean.png")
    start, _ = draw(name, seed, tmp_path / "start.png", {"source": ""})
    text = {"slope": "Municipal surveys, 2016 and 2024", "diverging": "Base: 323 employees who answered every item"}
    editor = TextEditor()
    out = editor.edit(start, "", failed(f'Is there a source note that reads exactly "{text[name]}"?'), 0)
    (act,) = editor.last_actions
    assert act["action"] == "place (at the page's foot)", act
    assert inside(act["box"], clean["source"], pad=1), (act["box"], clean["source"])
    assert changed_outside(out, start, clean["source"], pad=0) == 0
