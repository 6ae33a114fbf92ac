"""Generate -> judge -> official result files: the first two steps of ``rubricloop-eval``.

Per item (in data order, the seed is ``seed + its index in the data file``, so a shard or a
resumed run draws the same image):

1. image: ``<out>/images/<name>.png``; taken from ``images=<folder>`` when given, else
   generated once (an existing PNG is kept: resume). The size follows the benchmark's aspect
   ratio (:func:`resolution`).
2. verdicts: the configured judge over the item's checks.
3. the benchmark's official result file(s) under ``<out>/results/`` (an item whose file exists
   is skipped: resume), so the official scorer can read the run.

GenExam's official files need the judge's three global 0-2 ratings, which the offline judges
do not give: ``benchmark=genexam`` can be scored from existing result folders only.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Sequence

from rewards.common.images import ImageError, open_image
from rewards.importers import load_items
from rewards.rubric import Item, RubricError, Verdict
from rewards.scorers.bizgeneval_results import image_name, result_filename, write_result_file
from rewards.scorers.igenbench_results import igenbench_item, write_igenbench_result
from rewards.scorers.techimage_results import RESULTS_FILE, result_entries, techimage_items, upsert_results
from rewards.scorers.verdict_results import result_name, write_verdicts

ASPECT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[:xX*×]\s*(\d+(?:\.\d+)?)\s*$")


def load_benchmark_items(benchmark: str, data: Path) -> tuple[list[Item], list[str]]:
    """The items of a benchmark file: JSONL rows (BizGenEval, GenExam, rubric rows), a
    ``ProImageBench.json`` (TechImage), or IGenBench ``VISItem`` files (a folder of
    ``*.json`` / ``*/*.json`` or one file).

    Raises:
        RubricError: the data cannot be read.
    """
    if benchmark == "techimage":
        return techimage_items(data)
    if benchmark == "igenbench":
        files = [data] if data.is_file() else sorted({*data.glob("*.json"), *data.glob("*/*.json")})
        if not files:
            raise RubricError(f"{data}: no IGenBench item files (*.json)")
        items, errors = [], []
        for f in files:
            try:
                items.append(igenbench_item(f))
            except RubricError as e:
                errors.append(str(e))
        return items, errors
    return load_items(data)


def aspect_ratio(item: Item) -> float:
    """Width / height the benchmark asks for: BizGenEval ``reference_image_wh`` ("1920x1080"),
    else ``aspect_ratio`` ("16:9"), else 1.0. An unparsable value counts as absent."""
    for key in ("reference_image_wh", "aspect_ratio"):
        m = ASPECT.match(str(item.meta.get(key) or ""))
        if m and float(m.group(1)) > 0 and float(m.group(2)) > 0:
            return float(m.group(1)) / float(m.group(2))
    return 1.0


def resolution(item: Item, height: int, width: int, multiple: int = 16) -> tuple[int, int]:
    """(height, width) in pixels with the item's aspect ratio and about ``height * width`` pixels,
    each rounded to a multiple of ``multiple`` (>= one multiple), as BizGenEval's
    ``generation/resolution_utils.py`` snaps sizes to a stride."""
    ratio = aspect_ratio(item)
    area = height * width
    h, w = math.sqrt(area / ratio), math.sqrt(area * ratio)
    snap = lambda x: max(multiple, int(round(x / multiple)) * multiple)  # noqa: E731
    return snap(h), snap(w)


def image_file(benchmark: str, item: Item) -> str:
    """The image's file name: BizGenEval's official name (so its judge finds it), else ``<id>.png``."""
    if benchmark == "bizgeneval":
        return image_name(item.meta, item.id).rsplit(".", 1)[0] + ".png"
    return result_name(item.id)[: -len(".json")] + ".png"


def result_done(benchmark: str, results: Path, item: Item) -> bool:
    """True when the item's official result file already exists (resume)."""
    if benchmark == "bizgeneval":
        return (results / result_filename(item)).is_file()
    if benchmark == "igenbench":
        return (results / item.id / f"{item.id}.json").is_file()
    if benchmark == "techimage":
        path = results / RESULTS_FILE
        return path.is_file() and any(e.get("task_id") == f"{item.id}_general" for e in json.loads(path.read_text()))
    return (results / result_name(item.id)).is_file()


def write_results(
    benchmark: str,
    results: Path,
    item: Item,
    verdicts: dict[str, Verdict],
    gen_model: str,
    eval_model: str,
    image_path: str,
) -> None:
    """Write the item's official result file(s)."""
    if benchmark == "bizgeneval":
        write_result_file(results, item, verdicts)
    elif benchmark == "igenbench":
        write_igenbench_result(results, item, verdicts, gen_model, eval_model, image_path)
    elif benchmark == "techimage":
        upsert_results(results, result_entries(item, verdicts, image_path))
    elif benchmark == "genexam":
        raise RubricError(
            "benchmark=genexam: the official result files need the judge's three global ratings, "
            "which no configured judge gives; score an existing result folder with results=..."
        )
    else:
        write_verdicts(results, item, verdicts)


def item_seed(seed: int, index: int) -> int:
    """The generation seed of the item at ``index`` in the data file."""
    return seed + index


def generate_and_judge(
    benchmark: str,
    items: Sequence[tuple[int, Item]],
    out: Path,
    judge,
    generator=None,
    images: Path | None = None,
    seed: int = 0,
    multiple: int = 16,
    progress=None,
) -> list[str]:
    """Steps 1-3 of the module docstring for ``(index in data, item)`` pairs.

    Args:
        judge: a :class:`rewards.judges.base.Judge` (e.g. the configured Router).
        generator: a :class:`refine.interfaces.Generator`, or None when ``images`` is given.
        images: a folder of existing images named as :func:`image_file` (judge-only mode).
        multiple: generated sizes are rounded to a multiple of this many pixels.
        progress: a tqdm-like bar, advanced once per item.

    Returns:
        one error line per failed item (missing or unreadable image, generator error); the
        other items still finish.
    """
    images_out, results = out / "images", out / "results"
    images_out.mkdir(parents=True, exist_ok=True)
    results.mkdir(parents=True, exist_ok=True)
    base = (getattr(generator, "height", None), getattr(generator, "width", None))
    gen_model = getattr(generator, "name", None) or (f"images:{images.name}" if images else "none")
    errors = []
    for index, item in items:
        try:
            if result_done(benchmark, results, item):
                continue
            name = image_file(benchmark, item)
            target = images_out / name
            if images is not None:
                image = open_image(images / name)
                if not target.exists():
                    image.save(target)
            elif target.exists():
                image = open_image(target)
            else:
                if None not in base:
                    generator.height, generator.width = resolution(item, base[0], base[1], multiple)
                image = generator.generate(item.prompt, item_seed(seed, index))
                image.save(target)
            checks = item.rubric.checks
            verdicts = {v.check_id: v for v in judge.judge([image], [item.prompt], [checks])[0]}
            write_results(
                benchmark,
                results,
                item,
                verdicts,
                gen_model,
                getattr(judge, "name", "judge"),
                str(target.relative_to(out)),
            )
        except (ImageError, RubricError) as e:
            errors.append(f"item {item.id}: {e}")
        except Exception as e:  # a model error fails this item only
            errors.append(
                f"item {item.id}: {type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
            )
        finally:
            if progress is not None:
                progress.update(1)
    return errors
