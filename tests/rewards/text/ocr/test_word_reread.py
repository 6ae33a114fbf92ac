"""Issue 31, the judge: look-alike glyphs in small type on real-engine pages.

- m / rn at 9-12 px: the glyph check cannot tell "Company" from "Cornpany", and the dev split's
  source notes, footers and list items were withheld. Two readers must now agree: the comparison
  at the ink's own size and tesseract reading the word alone, enlarged.
- i / l: the engine's typo "Deslgn" (an "i" moved three letters on) on a donut's slice label was
  read "Design" by tesseract (confidence 71) and judged "yes"; a word read below confidence 90
  whose "i" is one unbroken stem is now a look-alike doubt.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from mpl_charts import pie, plt, render
from PIL import Image

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.ocr import word_reread
from rewards.text.ocr.lookalikes import FONTS, check_in_line, dotted, lookalike_doubt
from rewards.text.ocr.text_match import Line, Word
from rewards.text.questions.question_compiler import compile_question

pytestmark = pytest.mark.skipif(
    shutil.which("tesseract") is None or not any("LiberationSans" in f for f in FONTS),
    reason="tesseract and the Liberation fonts needed",
)


def note(word: str, family: str, px: int) -> tuple[Image.Image, list[tuple[int, int, int, int]]]:
    """ "Source: <word> filings" drawn by matplotlib at ``px`` pixels, with each word's ink box."""
    with plt.rc_context({"font.family": family}):
        fig = plt.figure(figsize=(6, 0.6), dpi=100, facecolor="white")
        fig.canvas.draw()
        renderer, x, texts = fig.canvas.get_renderer(), 10, []
        for part in ("Source:", word, "filings"):
            texts.append(fig.text(x / 600, 0.4, part, fontsize=px * 0.72, color="#333333"))
            x = texts[-1].get_window_extent(renderer).x1 + px * 0.3
        image = render(fig)
    boxes = []
    for t in texts:
        e = t.get_window_extent(renderer)
        x0, y0, x1, y1 = int(e.x0), int(image.height - e.y1), int(np.ceil(e.x1)), int(np.ceil(image.height - e.y0))
        g = np.asarray(image.convert("L").crop((x0, y0, x1, y1))).astype(int)
        ys, xs = np.nonzero(np.abs(g - 255) > 40)
        boxes.append((x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()), y0 + int(ys.max())))
    return image, boxes


@pytest.mark.parametrize("family, px", [("DejaVu Sans", 10), ("Liberation Serif", 11)])
def test_m_in_small_type_is_confirmed_and_rn_drawn_for_it_is_not(family, px):
    for drawn, outcome in (("Company", "confirmed"), ("Cornpany", "cannot_tell")):
        image, boxes = note(drawn, family, px)
        others = [Word("Source:", boxes[0]), Word("filings", boxes[2])]
        g, details = check_in_line(image, boxes[1], "Company", None, others)
        assert g.outcome == outcome, (drawn, g, details)
        assert details  # the glyph check alone could not tell: the two readers decided
    ok, reads = word_reread.reads_as(image, boxes[1], "Company")  # "Cornpany" read alone
    assert not ok and reads and word_reread.bare(reads[0]) != "Company", reads


def test_the_word_read_alone_must_read_the_word_at_every_scale():
    image, boxes = note("Company", "DejaVu Serif", 14)
    ok, reads = word_reread.reads_as(image, boxes[1], "Company")
    assert ok and [word_reread.bare(r) for r in reads] == ["Company"] * 3
    assert word_reread.reads_as(image, boxes[1], "Cornpany") == (False, reads[:1])  # stops at the first miss
    assert word_reread.bare("'company.") == "company"


def test_a_dotted_i_and_an_unbroken_l():
    i = np.zeros((12, 3))
    i[0:2, 1], i[4:12, 1] = 1.0, 1.0  # a dot, a gap, a stem
    ell = np.zeros((12, 3))
    ell[0:12, 1] = 1.0
    assert dotted(i, (1, 2)) is True and dotted(ell, (1, 2)) is False
    short = np.zeros((12, 3))
    short[5:12, 1] = 1.0  # a stem below the word's tallest ink, no dot: cannot tell
    short[0, 0] = 1.0
    assert dotted(short, (1, 2)) is None


def _slice_label(image: Image.Image, read: str, conf: float) -> tuple[list[Line], dict]:
    """The donut's third label as tesseract would read it: ``read`` with confidence ``conf``."""
    judge = OCRJudge()
    lines = judge.read(image)
    word = next(w for line in lines for w in line.words if w.text in ("Design", "Deslgn"))
    lines = [Line(tuple(Word(read, w.box, conf) if w is word else w for w in line.words)) for line in lines]
    return lines, {"found": True, "box": list(word.box), "text": "Design"}


def test_an_l_drawn_for_an_i_in_a_word_read_unsure_is_a_look_alike_doubt():
    typo = pie(["Sales", "Support", "Deslgn", "Research"])
    lines, record = _slice_label(typo, "Design", 71.0)
    reason, checks = lookalike_doubt(typo, lines, [record])
    assert "look more like 'Deslgn'" in reason and checks[0]["looks_like"] == "Deslgn"
    assert lookalike_doubt(typo, *_slice_label(typo, "Design", 96.0)[:1], [record]) is None  # read sure: not checked
    clean = pie(["Sales", "Support", "Design", "Research"])
    lines, record = _slice_label(clean, "Design", 71.0)
    assert lookalike_doubt(clean, lines, [record]) is None  # a dotted i: no doubt


def test_the_engine_typo_deslgn_on_a_donut_is_no_yes():
    question = 'Is there a slice label reading exactly "Design"?'
    check = Check("q", question, spec=compile_question(question))
    judge = OCRJudge()
    for labels, answers in (
        (["Sales", "Support", "Deslgn", "Research"], {"no", "withheld"}),
        (["Sales", "Support", "Design", "Research"], {"yes"}),
    ):
        image = pie(labels)
        v = judge.judge_lines(judge.read(image), image.size, check, image)
        assert v.answer in answers, (labels, v.reason)
