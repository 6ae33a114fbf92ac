"""Generic roles on a small drawn page (issue 31): "the country label 'India'" is satisfied by the
string read as a whole element, never by the string inside a longer line (needs the tesseract binary)."""

import shutil

import pytest
from PIL import Image, ImageDraw, ImageFont

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.questions.question_compiler import compile_question

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def bar_page():
    """560x360: a title, three bars with their country labels under them, a callout line."""
    img = Image.new("RGB", (560, 360), (255, 255, 255))
    d = ImageDraw.Draw(img)
    f = lambda px: ImageFont.truetype(SANS, px)  # noqa: E731
    d.text((280, 30), "Population by country", font=f(26), fill=(0, 0, 0), anchor="mm")
    for k, (name, h) in enumerate([("China", 180), ("India", 170), ("Brazil", 80)]):
        x = 90 + 150 * k
        d.rectangle([x, 300 - h, x + 70, 300], fill=(60, 110, 180))
        d.text((x + 35, 320), name, font=f(20), fill=(0, 0, 0), anchor="mm")
    d.text((330, 80), "Peak demand in 2024", font=f(18), fill=(120, 40, 40))
    return img


QUESTIONS = [  # (question, expected answer)
    ('Does the chart include the country label "India"?', "yes"),
    ('Does the chart include the country label "Japan"?', "no"),  # not read anywhere
    ('Is there a callout label reading exactly "Peak demand in 2024"?', "yes"),
    ('Is there a callout label reading exactly "Peak demand"?', "no"),  # only inside a longer line
    ('Does the country label read exactly "Brazil"?', "yes"),
]


def test_generic_roles_decided_on_a_drawn_page():
    specs = [compile_question(q) for q, _ in QUESTIONS]
    assert all(s.decidable and s.text.element is not None for s in specs)
    checks = [Check(str(k), q, spec=s) for k, ((q, _), s) in enumerate(zip(QUESTIONS, specs))]
    verdicts = OCRJudge().judge([bar_page()], [""], [checks])[0]
    got = [(q, v.answer) for (q, _), v in zip(QUESTIONS, verdicts)]
    assert got == [(q, a) for q, a in QUESTIONS], [v.reason for v in verdicts]
    assert "inside longer text ('Peak demand in 2024')" in verdicts[3].reason


def report_page():
    """560x360: a large title, a subtitle right under it, a body line, a note at the foot."""
    img = Image.new("RGB", (560, 360), (255, 255, 255))
    d = ImageDraw.Draw(img)
    f = lambda px: ImageFont.truetype(SANS, px)  # noqa: E731
    d.text((40, 30), "Quarterly Report", font=f(40), fill=(0, 0, 0))
    d.text((40, 85), "Sales by region", font=f(20), fill=(70, 70, 70))
    d.text((40, 180), "Revenue grew in every market", font=f(18), fill=(0, 0, 0))
    d.text((40, 320), "Prepared by finance", font=f(14), fill=(90, 90, 90))
    return img


ROLE_ANCHORED = [  # (question, expected answer): a relation to the title never answers "no" by itself
    ('Is the subtitle text exactly "Sales by region" directly below the title?', "yes"),
    ('Does the line directly below the title read exactly "Prepared by finance"?', "withheld"),  # far below
    ('Does the line directly below the title read exactly "Sales by regions"?', "no"),  # not read
]


def test_relations_to_the_title_measured_on_the_page():
    specs = [compile_question(q) for q, _ in ROLE_ANCHORED]
    assert all(s.decidable and s.text.role_anchors[0].role == "title" for s in specs)
    checks = [Check(str(k), q, spec=s) for k, ((q, _), s) in enumerate(zip(ROLE_ANCHORED, specs))]
    verdicts = OCRJudge().judge([report_page()], [""], [checks])[0]
    got = [(q, v.answer) for (q, _), v in zip(ROLE_ANCHORED, verdicts)]
    assert got == [(q, a) for q, a in ROLE_ANCHORED], [v.reason for v in verdicts]


def test_a_phrase_joining_two_elements_is_no_generic_role():
    two = compile_question('Does the heading and paragraph read exactly "Why choose us" and "Our supplements"?')
    assert "locator 'heading and paragraph'" in two.vlm_parts  # two elements: not one generic role
    one = compile_question('Is there a small button or label that reads exactly "Book"?')
    assert "locator 'small button or label'" in one.vlm_parts


def paragraph_page():
    """560x300: a heading and a two-line paragraph under it, a footer line."""
    img = Image.new("RGB", (560, 300), (255, 255, 255))
    d = ImageDraw.Draw(img)
    f = lambda px: ImageFont.truetype(SANS, px)  # noqa: E731
    d.text((40, 30), "Why choose us", font=f(30), fill=(0, 0, 0))
    d.text((40, 100), "Our supplements are crafted", font=f(18), fill=(0, 0, 0))
    d.text((40, 126), "with care and backed by science.", font=f(18), fill=(0, 0, 0))
    d.text((40, 260), "Contact our team today", font=f(14), fill=(90, 90, 90))
    return img


WHOLE = "Our supplements are crafted with care and backed by science."
PARAGRAPHS = [  # (question, expected answer): a paragraph named by what it says is the block read whole
    (f'Does the two-line supporting paragraph read exactly "{WHOLE}"?', "yes"),
    ('Does the descriptive paragraph read exactly "Our supplements are crafted"?', "withheld"),  # its first line
    ('Does the paragraph read exactly "Our supplements are crafted"?', "withheld"),  # was a false "yes"
    ('Does the supporting paragraph read exactly "Our supplements are made with care and backed by science."?', "no"),
    ('Does the supporting paragraph read exactly "Contact our team today"?', "yes"),  # a block of one line
]


def test_a_paragraph_is_a_whole_block():
    specs = [compile_question(q) for q, _ in PARAGRAPHS]
    assert all(s.decidable and s.text.element.role == "whole" for s in specs)
    checks = [Check(str(k), q, spec=s) for k, ((q, _), s) in enumerate(zip(PARAGRAPHS, specs))]
    verdicts = OCRJudge().judge([paragraph_page()], [""], [checks])[0]
    assert [v.answer for v in verdicts] == [a for _, a in PARAGRAPHS], [v.reason for v in verdicts]
    assert "only a VLM can decide: element" in verdicts[1].reason  # which block is the paragraph
