"""``strip_boxes.own_rows``: a strip word's box brought to its own line's ink."""

import numpy as np

from rewards.text.ocr.strip_boxes import own_rows


def test_a_word_box_taking_in_the_line_above_keeps_its_own_rows():
    gray = np.full((60, 100), 255, np.uint8)
    gray[5:12, 10:90:4] = 0  # the bottom rows of the line above (glyph stems), inside the strip
    gray[20:33, 10:60:3] = 0  # the word's own ink
    assert own_rows(gray, (10, 5, 60, 33), (21, 33)) == (10, 20, 60, 33)
    assert own_rows(gray, (10, 5, 60, 33), (5, 12)) == (10, 5, 60, 12)  # the other line's rows asked: its run
    assert own_rows(gray, (10, 40, 60, 55), (21, 33)) == (10, 40, 60, 55)  # off the rows: unchanged
    gray[12:20, 30:31] = 0  # ink joining the two runs: one run, the box unchanged
    assert own_rows(gray, (10, 5, 60, 33), (21, 33)) == (10, 5, 60, 33)
