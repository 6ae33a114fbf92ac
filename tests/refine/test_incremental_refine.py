"""Refine with incremental OCR re-reads (issue 22): every iteration's verdicts equal those of a whole
re-read of its image, and a diffusers editor's repaint is read whole.

A subset keeps this under a minute: one bundled example item (a chart whose edits touch several
lines) and one adversarial dev slide, one edit each. ``benchmarks/refine_speed.py`` compares every
iteration of the whole example and of the dev and report documents."""

import json
from pathlib import Path

import numpy as np
from hydra import compose, initialize_config_module
from hydra.utils import instantiate
from PIL import Image, ImageDraw, ImageFont

from documents.adversarial import make_document, make_item
from refine.editors.text import TextEditor
from refine.item_results import item_dir_name
from refine.loop import RefineLoop
from refine.writers.template import TemplateWriter
from rewards.importers import load_run_items
from rewards.judges.ocr import OCRJudge
from rewards.text.ocr.ocr_cache import PAGE_READS, ReadMemo, forget_reads, page_lines
from rewards.text.ocr.ocr_read import ReadSettings, read_page
from rewards.text.ocr.reread import MAX_REGION_SHARE, changed_regions

EXAMPLE = Path(__file__).resolve().parents[2] / "refine/example/bizgeneval_text.jsonl"


def run_verdicts(out, item) -> dict[int, dict[str, str]]:
    by: dict[int, dict[str, str]] = {}
    for line in (out / item_dir_name(item.id) / "verdicts.jsonl").read_text().splitlines():
        row = json.loads(line)
        by.setdefault(row["iteration"], {})[row["check"]] = row["answer"]
    return by


def test_incremental_verdicts_equal_whole_re_reads_on_every_iteration(tmp_path):
    [chart] = [i for i in load_run_items(EXAMPLE)[0] if str(i.id) == "381"]
    doc = make_document(0)  # adversarial dev split, a slide
    doc.erroneous.save(tmp_path / "slide.png")
    items = [chart, make_item(doc, tmp_path / "slide.png")]
    loop = RefineLoop(OCRJudge(), TemplateWriter(), TextEditor(), iterations=1)
    loop.run(items, tmp_path / "out")
    assert PAGE_READS.counts["incremental"] == 2  # each edited image was read incrementally
    whole = OCRJudge(incremental=False)
    compared = 0
    for item in items:
        for k, answers in run_verdicts(tmp_path / "out", item).items():
            forget_reads()
            image = Image.open(tmp_path / "out" / item_dir_name(item.id) / f"iter_{k}.png").convert("RGB")
            [verdicts] = whole.judge([image], [item.prompt], [item.rubric.checks])
            assert {v.check_id: v.answer for v in verdicts} == answers, (item.id, k)
            compared += 1
    assert compared == 4


def test_a_diffusers_repaint_is_read_whole():
    """The tiny FLUX-Kontext editor (random weights) changes every pixel: its regions would cover
    the whole page, so the memo reads its image whole."""
    with initialize_config_module("conf", version_base="1.3"):
        editor = instantiate(compose(config_name="editor/tiny").editor)
    page = Image.new("RGB", (160, 96), (250, 250, 250))
    ImageDraw.Draw(page).text(
        (8, 30), "Revenue 2024", font=ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 18), fill=0
    )
    repainted = editor.edit(page, "Make the title read 'Revenue 2025'.", [], seed=0)
    changed = (np.asarray(page) != np.asarray(repainted)).any(axis=2)
    assert changed.mean() > 0.9
    read = read_page(page, ReadSettings())
    regions = changed_regions(changed, [r.line.box for r in read.first], np.asarray(repainted.convert("L")))
    assert sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in regions) > MAX_REGION_SHARE * 160 * 96
    memo = ReadMemo()
    page_lines(page, memo=memo)
    page_lines(repainted, memo=memo)
    assert memo.counts == {"same": 0, "incremental": 0, "whole": 2}
