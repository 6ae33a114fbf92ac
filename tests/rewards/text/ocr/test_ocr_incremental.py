"""Incremental OCR re-reads (``rewards.text.ocr.ocr_cache``, ``rewards.text.ocr.reread.reread_page``): the same
pixels are read once, a local edit is read again only where it changed and gives the lines a
whole read gives, a page changed everywhere is read whole."""

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from rewards.text.ocr import tesseract_engine
from rewards.text.ocr.ocr_cache import ReadMemo, page_lines
from rewards.text.ocr.ocr_read import ReadSettings, ocr_lines, read_page
from rewards.text.ocr.reread import changed_regions

SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
SANS_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def slide() -> Image.Image:
    """A 640x360 slide: a title band, two columns of lines, a badge with white text."""
    img = Image.new("RGB", (640, 360), (250, 250, 250))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, 640, 60], fill=(20, 40, 90))
    d.text((24, 14), "Quarterly Results 2024", font=ImageFont.truetype(SANS_BOLD, 26), fill=(255, 255, 255))
    body = ImageFont.truetype(SERIF, 18)
    for k, (left, right) in enumerate(
        [("Revenue grew strongly", "Costs fell in spring"), ("New markets opened", "Staff count is stable")]
    ):
        d.text((24, 100 + 40 * k), left, font=body, fill=(20, 20, 20))
        d.text((340, 100 + 40 * k), right, font=body, fill=(20, 20, 20))
    d.rounded_rectangle([24, 260, 160, 296], radius=8, fill=(30, 110, 60))
    d.text((38, 266), "On track", font=body, fill=(255, 255, 255))
    return img


def edited(img: Image.Image) -> Image.Image:
    """``img`` with "Costs fell in spring" rewritten as "Costs fell in summer" (what the text editor does)."""
    out = img.copy()
    d = ImageDraw.Draw(out)
    d.rectangle([338, 98, 600, 124], fill=(250, 250, 250))
    d.text((340, 100), "Costs fell in summer", font=ImageFont.truetype(SERIF, 18), fill=(20, 20, 20))
    return out


@pytest.fixture
def calls(monkeypatch):
    """The images (or page lists) tesseract is asked to read."""
    seen, real = [], tesseract_engine.image_to_data

    def counting(image, **kw):
        seen.append(image)
        return real(image, **kw)

    monkeypatch.setattr(tesseract_engine, "image_to_data", counting)
    return seen


def test_the_same_pixels_are_read_once(calls):
    memo = ReadMemo()
    first = page_lines(slide(), memo=memo)
    n = len(calls)
    again = page_lines(slide(), memo=memo)  # another object, the same pixels
    assert again == first and len(calls) == n >= 2
    assert memo.counts == {"same": 1, "incremental": 0, "whole": 1}
    page_lines(slide(), lang="eng", psm=6, memo=memo)  # other settings: another read
    assert memo.counts["whole"] == 2 and len(calls) > n


def test_a_local_edit_is_read_again_only_where_it_changed_and_reads_as_a_whole_read(calls):
    memo = ReadMemo()
    before, after = slide(), edited(slide())
    page_lines(before, memo=memo)
    calls.clear()
    incremental = page_lines(after, memo=memo)
    assert memo.counts == {"same": 0, "incremental": 1, "whole": 1}
    # one page-pass read per mode, each of a crop of the upsampled page, never the whole page
    assert len(calls) == 2 and all(c.size[0] * c.size[1] < 0.1 * (2 * 640) * (2 * 360) for c in calls)
    whole = ocr_lines(after)
    assert sorted((ln.text, ln.box) for ln in incremental) == sorted((ln.text, ln.box) for ln in whole)
    assert "Costs fell in summer" in [ln.text for ln in incremental]
    assert "Costs fell in spring" not in [ln.text for ln in incremental]


def test_the_regions_take_in_whole_lines_and_stay_local():
    before, after = slide(), edited(slide())
    read = read_page(before, ReadSettings())
    changed = (np.asarray(before) != np.asarray(after)).any(axis=2)
    [region] = changed_regions(changed, [r.line.box for r in read.first + read.second], np.asarray(after.convert("L")))
    line = next(r.line.box for r in read.first if r.line.text == "Costs fell in spring")
    assert region[0] <= line[0] and region[1] <= line[1] and region[2] >= line[2] and region[3] >= line[3]
    # the other column's line at the same height is not in it (it is kept from the earlier read)
    other = next(r.line.box for r in read.first if r.line.text == "Revenue grew strongly")
    assert region[0] > other[2]


def test_a_page_changed_everywhere_is_read_whole():
    """A diffusers editor repaints every pixel (tests/refine/test_incremental_refine.py measures a
    tiny one); here every pixel moves by one grey level."""
    memo = ReadMemo()
    before = slide()
    page_lines(before, memo=memo)
    repainted = Image.fromarray((np.asarray(before).astype(np.int16) + 1).clip(0, 255).astype(np.uint8))
    assert page_lines(repainted, memo=memo) == ocr_lines(repainted)
    assert memo.counts == {"same": 0, "incremental": 0, "whole": 2}


def test_incremental_off_reads_an_edited_page_whole():
    memo = ReadMemo()
    page_lines(slide(), memo=memo, incremental=False)
    page_lines(edited(slide()), memo=memo, incremental=False)
    page_lines(edited(slide()), memo=memo, incremental=False)
    assert memo.counts == {"same": 1, "incremental": 0, "whole": 2}


def test_the_memo_is_bounded():
    memo = ReadMemo(max_reads=1)
    page_lines(slide(), memo=memo, scale=1.0, second_psm=None)
    page_lines(edited(slide()), memo=memo, scale=1.0, second_psm=None, incremental=False)
    page_lines(slide(), memo=memo, scale=1.0, second_psm=None, incremental=False)  # forgotten: read again
    assert memo.counts == {"same": 0, "incremental": 0, "whole": 3}
    with pytest.raises(ValueError, match="max_reads must be >= 1"):
        ReadMemo(max_reads=0)


def test_judge_and_eval_read_every_new_page_whole():
    """rubricloop-judge and -eval judge separate documents: a page that differs from an earlier
    one in a few rows (a clean page and its corrupted twin) is read whole there, never from the
    other's read (``whole_reads_only``, which ``forget_reads`` undoes)."""
    from rewards.text.ocr import ocr_cache

    ocr_cache.whole_reads_only()
    page_lines(slide())
    page_lines(edited(slide()))  # asks for an incremental read (the default): read whole all the same
    page_lines(edited(slide()))
    assert ocr_cache.PAGE_READS.counts == {"same": 1, "incremental": 0, "whole": 2}
    ocr_cache.forget_reads()
    assert ocr_cache.PAGE_READS.incremental is True


def test_a_new_large_title_is_read_whole_in_its_region():
    """A 40 px title written where another page had its title (a page judged after another page of
    its size, or a title rewritten in place): the words' gap is wider than 16 px and the region's
    crop was tight, so the incremental read lost "FUN FACT ABOUT" (the region was cut between
    "FUN" and "FACT", and a crop 6 px from the "F" read "UN FACT ABOUT")."""
    bold, body = ImageFont.truetype(SANS_BOLD, 40), ImageFont.truetype(SANS_BOLD, 22)
    before = Image.new("RGB", (1000, 700), "white")
    ImageDraw.Draw(before).text((40, 28), "Annual Overview", font=bold, fill=(17, 17, 17))
    after = Image.new("RGB", (1000, 700), "white")
    d = ImageDraw.Draw(after)
    d.text((307, 85), "FUN FACT ABOUT", font=bold, fill=(17, 17, 17))
    d.text((307, 130), "GIRAFFE", font=body, fill=(17, 17, 17))
    for img in (before, after):
        ImageDraw.Draw(img).text((50, 595), "Figures are shown in thousands.", font=body, fill=(17, 17, 17))
    changed = (np.asarray(before) != np.asarray(after)).any(axis=2)
    regions = changed_regions(changed, [], np.asarray(after.convert("L")))
    assert [r for r in regions if r[1] < 125 < r[3]] == [r for r in regions if r[0] < 320 and r[2] > 680]
    memo = ReadMemo()
    page_lines(before, memo=memo)
    lines = [ln.text for ln in page_lines(after, memo=memo)]
    assert memo.counts["incremental"] == 1
    assert lines == [ln.text for ln in page_lines(after, memo=ReadMemo())]
    assert "FUN FACT ABOUT" in lines
