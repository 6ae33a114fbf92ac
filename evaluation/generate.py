"""Generate -> judge -> official result files: the first two steps of ``rubricloop-eval``.

Per item (in data order, the seed is ``seed + its index in the data file``, so a shard or a
resumed run draws the same image):

0. prompt (generate mode with ``prompt_rewriter=<folder>`` only): the trained rewriter
   (``rewards.rewriting.PromptRewriter``, greedy) rewrites the item's prompt, one item at a time
   (so a shard rewrites as the whole run does); a rewrite that drops a quoted string of the
   original, is empty or is over the length cap is refused and the original prompt is rendered
   instead. Each item's rewrite is appended to ``<out>/rewrites.jsonl`` (:data:`REWRITES`: id,
   original, rewrite, prompt rendered, problem) before its image is made; a rerun reuses the
   recorded rewrite of an unchanged prompt (``run.json`` pins the rewriter's files). Only the
   image comes from the rewrite: the judge still judges against the original prompt and rubric.
1. image: ``<out>/images/<name>.png``; copied from ``images=<folder>`` when given (the row's own
   ``image`` when it names one, in that folder or relative to the rows file, else the file named
   as the result: :func:`source_image`), else generated (a readable PNG that was
   generated for the same rendered prompt, seed and size is kept: resume; the rendered prompt
   is the rewrite when step 0 used one). The size follows the benchmark's aspect ratio
   (:func:`resolution`). Files are written under a temporary name and renamed, so a killed run
   leaves no half image.
2. verdicts: the configured judge over the item's checks. When a judge's calls failed on at
   least ``judge_outage`` of the checks sent to it (``rewards.judges.outage``), the item fails
   and no result file is written: a rerun redoes it.
3. the benchmark's official result file(s) under ``<out>/results/`` (atomic), the item's verdict
   records into ``<out>/verdicts.jsonl`` (:data:`VERDICTS`), then the item's
   fingerprint (``rewards.fingerprint``: prompt, rubric, image bytes, judge settings) into
   ``<out>/fingerprints.jsonl``. A rerun skips an item only when its result file is readable
   and its fingerprint is unchanged; an edited row or a replaced image is redone.

A name made from row data that would leave ``out`` or that an earlier row already uses
(:func:`name_problems`) fails that item in one line.

GenExam's official files need the judge's three global 0-2 ratings, which the offline judges
do not give: ``benchmark=genexam`` can be scored from existing result folders only.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from PIL import Image, PngImagePlugin

from rewards.common.images import ImageError, open_image
from rewards.common.run_folder import write_text
from rewards.fingerprint import file_digest, item_fingerprint
from rewards.importers import load_items
from rewards.judges.outage import judges_down
from rewards.rubric import Item, RubricError, Verdict, verdict_record
from rewards.scorers.bizgeneval_results import (
    image_name,
    plain_file_name,
    read_result_file,
    result_name_problems,
    write_result_file,
)
from rewards.scorers.igenbench_results import igenbench_item, write_igenbench_result
from rewards.scorers.techimage_results import RESULTS_FILE, result_entries, techimage_items, upsert_results
from rewards.scorers.verdict_results import read_verdicts, result_name, write_verdicts

ASPECT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[:xX*×]\s*(\d+(?:\.\d+)?)\s*$")
FINGERPRINTS = "fingerprints.jsonl"
"""In an eval ``out`` (and each shard folder): one ``{"id", "fingerprint"}`` line per finished item."""
GENERATED_KEY = "rubricloop-generation"
"""PNG text key of a generated image: the hash of the prompt, seed and size it was made with."""
VERDICTS = "verdicts.jsonl"
"""In an eval ``out`` (and each shard folder): one line per check of each judged item, the verdict
record of ``rubricloop-judge`` and ``rubricloop-refine`` (``rewards.rubric.verdict_record``) with
the item's ``fingerprint``; at the end of a run only the lines of each item's recorded
fingerprint are kept (an item redone drops its older lines)."""
REWRITES = "rewrites.jsonl"
"""In an eval ``out`` made with ``prompt_rewriter=`` (and each shard folder): one ``{"id",
"original", "rewrite", "prompt", "problem"}`` line per rewritten item (``prompt``: what the
generator rendered; ``problem``: why the rewrite was refused, null when it was used)."""


def load_benchmark_items(benchmark: str, data: Path, limit: int | None = None) -> tuple[list[Item], list[str]]:
    """The items of a benchmark file: JSONL rows (BizGenEval, GenExam, rubric rows), a
    ``ProImageBench.json`` (TechImage), or IGenBench ``VISItem`` files (a folder of
    ``*.json`` / ``*/*.json`` or one file). ``limit``: only the first that many items (JSONL
    rows are then read no further than needed).

    Raises:
        RubricError: the data cannot be read.
    """
    if benchmark == "techimage":
        items, errors = techimage_items(data)
        return items[:limit], errors
    if benchmark == "igenbench":
        files = [data] if data.is_file() else sorted({*data.glob("*.json"), *data.glob("*/*.json")})
        if not files:
            raise RubricError(f"{data}: no IGenBench item files (*.json)")
        items, errors = [], []
        for f in files:
            if limit is not None and len(items) >= limit:
                break
            try:
                items.append(igenbench_item(f))
            except RubricError as e:
                errors.append(str(e))
        return items, errors
    return load_items(data, limit)


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


def name_problems(benchmark: str, items: Sequence[Item], results: Path) -> dict[str, str]:
    """Items whose files cannot be written safely: item id -> one error line.

    BizGenEval: :func:`rewards.scorers.bizgeneval_results.result_name_problems` (a name that
    leaves ``results``, or one an earlier row uses). IGenBench: an id that is not a plain file
    name (its result is ``<id>/<id>.json``). Every benchmark: an image name an earlier item
    already uses (ids that differ only in characters the file name replaces).
    """
    problems = result_name_problems(list(items), results) if benchmark == "bizgeneval" else {}
    owner: dict[str, str] = {}
    for item in items:
        if item.id in problems:
            continue
        if benchmark == "igenbench" and not plain_file_name(item.id):
            problems[item.id] = f"item {item.id}: its id is not a plain file name (results are <id>/<id>.json); refused"
            continue
        name = image_file(benchmark, item)
        if name in owner:
            problems[item.id] = f"item {item.id}: its image file {name} is item {owner[name]}'s too; refused"
        else:
            owner[name] = item.id
    return problems


def result_done(benchmark: str, results: Path, item: Item) -> bool:
    """True when the item's official result file exists and reads back (resume); a truncated or
    unreadable file is not done."""
    try:
        if benchmark == "bizgeneval":
            return read_result_file(results, item)[0] in ("ok", "empty")
        if benchmark == "igenbench":
            path = results / item.id / f"{item.id}.json"
            return path.is_file() and isinstance(json.loads(path.read_text(encoding="utf-8")), dict)
        if benchmark == "techimage":
            path = results / RESULTS_FILE
            return path.is_file() and any(
                isinstance(e, dict) and e.get("task_id") == f"{item.id}_general"
                for e in json.loads(path.read_text(encoding="utf-8"))
            )
        return read_verdicts(results, item) is not None
    except (OSError, ValueError, TypeError, RubricError):
        return False


def read_ledger(path: Path, what: str, value: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """item id -> ``value(row)`` for each line of a JSONL ledger (``fingerprints.jsonl``,
    ``rewrites.jsonl``): the last line of an id wins; a line a killed run left half-written, or
    one ``value`` rejects (raises KeyError, TypeError or ValueError), is ignored.

    Raises:
        ValueError: ``path`` exists but is not a regular file (a FIFO: never opened; one line
            saying it holds ``what``).
    """
    from rewards.common.run_folder import check_regular

    check_regular(path, what)
    found = {}
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return {}
    for line in lines:
        try:
            row = json.loads(line)
            found[str(row["id"])] = value(row)
        except (ValueError, TypeError, KeyError):
            continue
    return found


def append_ledger(path: Path, *rows: dict[str, Any]) -> None:
    """Append ``rows`` to a JSONL file, one line each, the first on a line of its own (after a
    torn last line: only the file's last byte is read)."""
    torn = False
    if path.is_file() and path.stat().st_size:
        with open(path, "rb") as f:
            f.seek(-1, os.SEEK_END)
            torn = f.read(1) != b"\n"
    with open(path, "a", encoding="utf-8") as f:
        f.write(("\n" if torn else "") + "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))


def append_verdicts(
    path: Path, item: Item, verdicts: dict[str, Verdict], fingerprint: str, image: str | None = None
) -> None:
    """Append the item's verdict records (checks in rubric order, a missing verdict left out);
    ``image``: the path of the image judged (each record's ``image``)."""
    append_ledger(
        path,
        *(
            verdict_record(item, c, verdicts[c.id], fingerprint=fingerprint, image=image)
            for c in item.rubric.checks
            if c.id in verdicts
        ),
    )


def prune_verdicts(path: Path, fingerprints: dict[str, str]) -> None:
    """Rewrite ``verdicts.jsonl`` (atomically) with only the lines made from each item's recorded
    fingerprint (``fingerprints``: :func:`read_fingerprints`), the last line of each (item, check):
    lines of an item redone since, of a run killed before it recorded the item, or torn, go."""
    if not path.is_file():
        return
    kept: dict[tuple[str, str], str] = {}
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            d = json.loads(raw)
            if fingerprints.get(str(d["item_id"])) == d["fingerprint"]:
                kept.pop(key := (str(d["item_id"]), str(d["check"])), None)
                kept[key] = raw
        except (ValueError, KeyError, TypeError):
            continue
    write_text(path, "".join(line + "\n" for line in kept.values()))


def read_fingerprints(path: Path) -> dict[str, str]:
    """item id -> fingerprint from ``fingerprints.jsonl`` (:func:`read_ledger`)."""
    return read_ledger(path, "what its finished items were made from", lambda row: str(row["fingerprint"]))


def record_fingerprint(path: Path, item_id: str, fingerprint: str) -> None:
    """Append one finished item's fingerprint."""
    append_ledger(path, {"id": item_id, "fingerprint": fingerprint})


def save_png(image: Image.Image, path: Path, key: str | None = None) -> None:
    """Save ``image`` as PNG at ``path`` atomically (``<path>.tmp``, then renamed), with the
    generation ``key`` as a PNG text chunk when given."""
    info = None
    if key is not None:
        info = PngImagePlugin.PngInfo()
        info.add_text(GENERATED_KEY, key)
    tmp = path.with_name(path.name + ".tmp")
    try:
        image.save(tmp, format="PNG", pnginfo=info)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def generation_key(item: Item, seed: int, size: tuple[int | None, int | None], prompt: str | None = None) -> str:
    """What a generated image was made from: the prompt rendered (``prompt``: a rewrite of the
    item's; None: the item's own), seed and (height, width), as a short hash. An image made from
    another rewrite has another key, so it is made again."""
    blob = json.dumps([item.prompt if prompt is None else prompt, seed, list(size)], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def generated_for(path: Path, key: str) -> bool:
    """True when ``path`` is a complete PNG generated with ``key`` (a half-written or stale one
    is made again)."""
    if not path.is_file():  # a FIFO would block Image.open forever
        return False
    try:
        with Image.open(path) as im:
            im.load()
            return im.info.get(GENERATED_KEY) == key
    except (OSError, ValueError, Image.DecompressionBombError):
        return False


def _rewrite_row(row: dict[str, Any]) -> dict[str, Any]:
    if not (isinstance(row["original"], str) and isinstance(row["prompt"], str)):
        raise TypeError("original and prompt must be strings")
    return row


def read_rewrites(path: Path) -> dict[str, dict[str, Any]]:
    """item id -> its recorded rewrite from ``rewrites.jsonl`` (:func:`read_ledger`; a line
    without a string ``original`` and ``prompt`` is ignored)."""
    return read_ledger(path, "the prompt rewrites of its items", _rewrite_row)


def record_rewrite(path: Path, item_id: str, rewrite) -> dict[str, Any]:
    """Append one item's :class:`rewards.rewriting.Rewrite` to ``rewrites.jsonl``; returns the line's row."""
    row = {
        "id": item_id,
        "original": rewrite.original,
        "rewrite": rewrite.rewrite,
        "prompt": rewrite.prompt,
        "problem": rewrite.problem,
    }
    append_ledger(path, row)
    return row


def rendered_prompt(item: Item, rewriter, recorded: dict[str, dict[str, Any]], path: Path) -> str:
    """The prompt the generator renders for ``item``: its own without a rewriter; else the
    recorded rewrite (``recorded``, from :func:`read_rewrites`) when it was made from the same
    prompt, else a new one (``rewriter.rewrite``), recorded in ``path`` and ``recorded``."""
    if rewriter is None:
        return item.prompt
    row = recorded.get(item.id)
    if row is None or row["original"] != item.prompt:
        row = recorded[item.id] = record_rewrite(path, item.id, rewriter.rewrite([item.prompt])[0])
    return row["prompt"]


def rewrite_counts(out: Path, items: Sequence[Item]) -> dict[str, Any]:
    """How the rewriter did on ``items`` (as ``<out>/rewrites.jsonl`` records them): ``{"rewritten":
    items with a rewrite of their current prompt, "refused": how many of those fell back to the
    original prompt, "refused_items": {id: problem}}``."""
    recorded = read_rewrites(out / REWRITES)
    rows = [r for it in items if (r := recorded.get(it.id)) is not None and r["original"] == it.prompt]
    refused = {str(r["id"]): r.get("problem") for r in rows if r.get("problem")}
    return {"rewritten": len(rows), "refused": len(refused), "refused_items": refused}


def source_image(images: Path, name: str, item: Item, rows_dir: Path | None = None, images_only: bool = False) -> Path:
    """The image to judge in judge-only mode. A row that names its ``image`` gets that image,
    first in the ``images`` folder as written (``<images>/<image as written>``), then where the row
    says, relative to the rows file (``item.image``), then ``<images>/<its base name>`` (the official
    BizGenEval name): a file of the same base name elsewhere in ``images`` never hides the row's own
    image. A row without one, or whose image is in none of these places, gets ``<images>/<name>``
    (the benchmark's own name, e.g. BizGenEval ``<domain>_<dimension>_<id>.png``).

    Args:
        rows_dir: the folder of the rows file ``item.image`` was resolved against (to recover the
            path as written); None: only the base name is looked up in ``images``.
        images_only: look only in ``images`` (the row's own path outside it is not a candidate).

    Raises:
        ImageError: none exists (naming the places looked in).
    """
    path = images / name
    if item.image is None:
        if path.exists():
            return path
        raise ImageError(f"image not found: {path}")
    own = []
    if rows_dir is not None:
        own.append(images / os.path.relpath(item.image, Path(rows_dir).resolve()))
    own += ([] if images_only else [Path(item.image)]) + [images / Path(item.image).name]
    candidates = [*dict.fromkeys([*own, path])]
    for candidate in candidates:
        if candidate.exists():
            return candidate
    where = f"in images={images} (images_only=true)" if images_only else "in any of"
    raise ImageError(f"image not found {where}: {', '.join(str(c) for c in candidates)}")


def outside_images(images: Path, source: Path) -> bool:
    """True when ``source`` (from :func:`source_image`) is not a file inside the ``images`` folder."""
    try:
        Path(source).resolve().relative_to(Path(images).resolve())
    except ValueError:
        return True
    return False


def say_outside(images: Path, outside: Sequence[str], judged: int, write: Callable[[str], Any]) -> None:
    """One line when some items were judged on their row's own image outside ``images=``."""
    if outside:
        write(
            f"images={images}: {len(outside)} of {judged} items were judged on the image their row names, "
            f"not a file in {images} (e.g. item {outside[0]}; the image each item used is the 'image' of its "
            "lines in verdicts.jsonl); images_only=true judges only files in images="
        )


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
    judge_outage: float = 1.0,
    settings: dict[str, Any] | None = None,
    refused: dict[str, str] | None = None,
    rewriter=None,
    rows_dir: Path | None = None,
    images_only: bool = False,
) -> list[str]:
    """Steps 0-3 of the module docstring for ``(index in data, item)`` pairs.

    Args:
        judge: a :class:`rewards.judges.base.Judge` (e.g. the configured Router).
        generator: a :class:`refine.interfaces.Generator`, or None when ``images`` is given.
        images: a folder of existing images named as :func:`image_file` (judge-only mode).
        multiple: generated sizes are rounded to a multiple of this many pixels.
        progress: a tqdm-like bar, advanced once per item.
        judge_outage: in (0, 1]; an item fails (no result file: a rerun redoes it) when a
            judge's calls failed on at least this fraction of the checks sent to it.
        settings: the run's verdict-changing settings (the judge's config), part of each item's
            fingerprint.
        refused: item id -> error line for items not to be done (:func:`name_problems`).
        rewriter: a :class:`rewards.rewriting.PromptRewriter` (generate mode): step 0, recorded in
            ``<out>/rewrites.jsonl``; the generator renders ``Rewrite.prompt``.
        rows_dir: the data file's folder, against which the rows' ``image`` fields were resolved
            (:func:`source_image`).
        images_only: judge only files in ``images`` (:func:`source_image`); otherwise the items
            judged on their row's own image outside ``images`` are counted in one line.

    Returns:
        one error line per failed item (missing or unreadable image, generator error, judge
        outage, refused name); the other items still finish.
    """
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "results").mkdir(parents=True, exist_ok=True)
    run = _ItemPass(benchmark, out, judge, generator, images, seed, multiple, judge_outage, settings or {})
    run.rewriter, run.rows_dir, run.images_only = rewriter, rows_dir, images_only
    run.recorded = read_rewrites(out / REWRITES) if rewriter is not None else {}
    done, errors = read_fingerprints(out / FINGERPRINTS), []
    for index, item in items:
        try:
            error = refused[item.id] if refused and item.id in refused else run.item(index, item, done)
            if error is not None:
                errors.append(error)
        except (ImageError, RubricError) as e:
            errors.append(f"item {item.id}: {e}")
        except Exception as e:  # a model error fails this item only
            errors.append(f"item {item.id}: {type(e).__name__}: {first_line(e)}")
        finally:
            if progress is not None:
                progress.update(1)
    prune_verdicts(out / VERDICTS, read_fingerprints(out / FINGERPRINTS))
    say = progress.write if progress is not None else print
    say_outside(images, run.outside, run.from_images, say)
    if run.changed:
        why = "(rubric, prompt, image or judge)"
        say(f"{run.changed} items redone because their data changed since they were judged {why}")
    return errors


def first_line(error: Exception) -> str:
    """The first line of ``error``'s message, or "" for an empty one."""
    text = str(error).strip()
    return text.splitlines()[0] if text else ""


@dataclass
class _ItemPass:
    """What :func:`generate_and_judge`'s items share (its arguments), and what it counts over them:
    items redone because their data changed, items judged on their row's own image outside
    ``images`` (``outside``) out of ``from_images``."""

    benchmark: str
    out: Path
    judge: Any
    generator: Any
    images: Path | None
    seed: int
    multiple: int
    judge_outage: float
    settings: dict[str, Any]
    rewriter: Any = None
    rows_dir: Path | None = None
    images_only: bool = False
    recorded: dict = field(default_factory=dict)
    changed: int = 0
    outside: list[str] = field(default_factory=list)
    from_images: int = 0

    def item(self, index: int, item: Item, done: dict[str, str]) -> str | None:
        """Steps 0-3 for one item (``index``: its place in the data): its image found, kept or
        generated, judged, and its result, verdict lines and fingerprint written; an item finished
        with the same fingerprint is skipped. Returns an error line for a judge outage, else None."""
        out, images, generator = self.out, self.images, self.generator
        base = (getattr(generator, "height", None), getattr(generator, "width", None))
        name = image_file(self.benchmark, item)
        target = out / "images" / name
        size = resolution(item, base[0], base[1], self.multiple) if None not in base else base
        prompt = (
            item.prompt if images is not None else rendered_prompt(item, self.rewriter, self.recorded, out / REWRITES)
        )
        key = generation_key(item, item_seed(self.seed, index), size, prompt)
        if images is not None:
            source = source_image(images, name, item, self.rows_dir, self.images_only)
            self.from_images += 1
            if outside_images(images, source):
                self.outside.append(item.id)
        else:
            source = target if generated_for(target, key) else None
        fingerprint = item_fingerprint(item, {**self.settings, "image": file_digest(source)}, image=False)
        if (
            source is not None
            and done.get(item.id) == fingerprint
            and result_done(self.benchmark, out / "results", item)
        ):
            return None
        self.changed += item.id in done and done[item.id] != fingerprint
        if source is not None:
            image = open_image(source if images is not None else target)
            if images is not None:
                save_png(image, target)
        else:
            if None not in base:
                generator.height, generator.width = size
            image = generator.generate(prompt, item_seed(self.seed, index))
            save_png(image, target, key)
            fingerprint = item_fingerprint(item, {**self.settings, "image": file_digest(target)}, image=False)
        # the original prompt: the rubric is the original's, whatever the generator rendered
        verdicts = {v.check_id: v for v in self.judge.judge([image], [item.prompt], [item.rubric.checks])[0]}
        down = judges_down(verdicts.values(), self.judge_outage)
        if down:  # an outage is not an answer: no result file, a rerun redoes the item
            return f"item {item.id}: " + "; ".join(down)
        gen_model = getattr(generator, "name", None) or (f"images:{images.name}" if images else "none")
        judge_name, image_path = getattr(self.judge, "name", "judge"), str(target.relative_to(out))
        write_results(self.benchmark, out / "results", item, verdicts, gen_model, judge_name, image_path)
        append_verdicts(out / VERDICTS, item, verdicts, fingerprint, str(source or target))
        record_fingerprint(out / FINGERPRINTS, item.id, fingerprint)
        return None
