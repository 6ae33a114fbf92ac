"""The refine loop: judge -> failed checks -> edit instructions -> editor -> judge again.

Protocol of TechImage-Bench §5.1-5.2: each iteration takes the checks answered "no", writes
edit instructions per criterion, edits the previous image, re-judges it, and the best
iteration seen is kept. Withheld checks are not edited (nothing is known about them) and
never count as passes. An edit that changes no pixel ends the item's loop: judging the same
image again would give the same verdicts, and the editor would skip the same strings again.
That edit is logged in ``instructions.jsonl`` (with the editor's reasons) but has no image
and no verdicts of its own.

Output layout under ``out`` (one folder per item, named by :func:`item_dir_name`)::

    <out>/<item>/iter_0.png ... iter_<k>.png   every iteration's image (iter_0 = start image)
    <out>/<item>/best.png                      copy of the best iteration
    <out>/<item>/verdicts.jsonl                one line per (iteration, check): iteration + the verdict
                                               record (rewards.rubric.verdict_record, README)
    <out>/<item>/instructions.jsonl            one line per edit: iteration, instruction, editor_actions
    <out>/<item>/result.json                   written last: the item is finished
    <out>/summary.json                         per item scores, best iteration, errors; means
    <out>/run.json                             the settings (iterations, keep_best_by, seed)

Resume: an item folder with a readable ``result.json`` is skipped; any other item folder is
half-written and is redone from scratch. A rerun with other settings than ``run.json`` is
refused. ``summary.json`` is rewritten (atomically) after every item, so a Ctrl-C loses nothing
that was finished.
"""

from __future__ import annotations

import json
import shutil
from contextlib import closing
from pathlib import Path
from typing import Any, Callable, Sequence

from PIL import Image

from refine.edit_audit import damaged
from refine.editors.edit_log import tally_edits
from refine.interfaces import Editor, Failure, Generator, StructuredEditor, Writer
from refine.item_results import (
    ItemResult,
    item_dir_names,
    read_result,
    refuted,
    run_summary,
    text_tally,
    unchanged_reason,
)
from rewards.common.images import to_rgb
from rewards.common.items import ItemError, ItemWriteError, load_item_image, writing
from rewards.common.one_line import one_line
from rewards.common.run_folder import check_settings, write_json
from rewards.fingerprint import item_fingerprint
from rewards.judges.base import Judge
from rewards.judges.outage import call_error
from rewards.rubric import Item, Verdict, verdict_record
from rewards.scorers.item_scores import ITEM_SCORES, score_item


def record_verdicts(result: ItemResult, item: Item, verdicts: dict[str, Verdict], iteration: int) -> list[dict]:
    """The ``verdicts.jsonl`` lines of one judged iteration (the record judge and eval write), one per
    check in rubric order (a check the judge left out is withheld by "loop"); counts into ``result``
    the withheld reasons and, per judge that made a call (a cached verdict made none), its checks
    and failed calls."""
    lines = []
    for check in item.rubric.checks:
        v = verdicts.get(check.id) or Verdict(check.id, "withheld", "loop", "judge returned no verdict")
        if v.answer == "withheld":
            result.withheld[v.reason] = result.withheld.get(v.reason, 0) + 1
        if v.judge not in ("router", "loop") and not (v.evidence or {}).get("cached"):
            calls = result.judges.setdefault(v.judge, {"checks": 0, "failed": 0, "last_error": None})
            calls["checks"] += 1
            if (error := call_error(v)) is not None:
                calls["failed"] += 1
                calls["last_error"] = error
        lines.append({"iteration": iteration, **verdict_record(item, check, v)})
    return lines


def save_image(image: Image.Image, path: Path, item_id: str) -> None:
    """Save ``image`` as ``path``; a failed write (disk full) fails the item (``ItemWriteError``)."""
    with writing(path, item_id):
        image.save(path)


def append_lines(path: Path, records: list[dict], item_id: str) -> None:
    """Append ``records`` to the JSONL file ``path`` (created if absent), one line each, and close
    it, so nothing is left in a buffer; a failed write (disk full) fails the item (``ItemWriteError``)."""
    with writing(path, item_id), open(path, "a", encoding="utf-8") as f:
        f.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))


def _settings_refusal(path: Path, settings: dict[str, Any]) -> Callable[[dict[str, Any]], str]:
    """The refusal of a rerun into ``path.parent`` with other ``settings``: names each setting
    that differs (a config group as "another <name>"), in name order."""

    def refusal(before: dict[str, Any]) -> str:
        changed = ", ".join(
            f"another {k}" if isinstance(before.get(k), dict) else f"{k}={before.get(k)!r}"
            for k in sorted(set(settings) | set(before))
            if before.get(k) != settings.get(k)
        )
        return (
            f"{path.parent} holds a run made with {changed} (see {path}); use those settings to resume, or a new out="
        )

    return refusal


class RefineLoop:
    """Runs the loop over items, writing the output layout described in the module docstring.

    Args:
        judge: answers the checks (usually a ``Router`` over OCR then VLM judges).
        writer: failed checks -> instruction text.
        editor: image + instruction -> edited image.
        generator: makes the start image of items without one; None = such items fail.
        iterations: maximum number of edits per item (N); the item is judged N + 1 times at most.
        keep_best_by: a key of ``rewards.scorers.item_scores.ITEM_SCORES``; ties keep the iteration with
            the fewest checks answered "no" (``refuted``), then the earliest. A string fixed for a check
            whose locator only a VLM can decide turns a "no" into a withheld, not a "yes": without the
            tie-break the offline run kept the unedited start image of most bundled items (issue 17).
        seed: base seed; iteration k of item i (its index in the data, see :meth:`run`) edits
            with seed ``seed + 1000 * i + k``.
        run_settings: more settings a rerun must share to resume (the CLI passes the data path
            and the judge/writer/editor/generator configs); recorded in ``<out>/run.json``.
        judge_outage: in (0, 1]; an item fails (and is redone on resume) when at least this
            fraction of the verdicts one judge gave it, over all iterations, are failed calls:
            1.0 = every check sent to that judge failed, i.e. the judge is down, not answering.

    Raises:
        ValueError: unknown ``keep_best_by``, negative ``iterations`` or ``judge_outage`` outside (0, 1].
    """

    def __init__(
        self,
        judge: Judge,
        writer: Writer,
        editor: Editor,
        generator: Generator | None = None,
        iterations: int = 3,
        keep_best_by: str = "pass_rate",
        seed: int = 0,
        run_settings: dict[str, Any] | None = None,
        judge_outage: float = 1.0,
    ):
        if keep_best_by not in ITEM_SCORES:
            raise ValueError(f"keep_best_by={keep_best_by!r} is not one of {sorted(ITEM_SCORES)}")
        if iterations < 0:
            raise ValueError(f"iterations must be >= 0, got {iterations}")
        if not 0 < judge_outage <= 1:
            raise ValueError(f"judge_outage must be in (0, 1], got {judge_outage}")
        self.judge_outage = judge_outage
        self.judge, self.writer, self.editor, self.generator = judge, writer, editor, generator
        self.iterations, self.keep_best_by, self.seed = iterations, keep_best_by, seed
        self.run_settings = dict(run_settings or {})

    def judge_one(self, image: Image.Image, item: Item) -> dict[str, Verdict]:
        """Verdicts for every check of ``item``, keyed by check id."""
        [verdicts] = self.judge.judge([image], [item.prompt], [item.rubric.checks])
        return {v.check_id: v for v in verdicts}

    def start_image(self, item: Item, index: int) -> Image.Image:
        if item.image is not None:
            return load_item_image(item.image, item.id)
        if self.generator is None:
            raise ItemError(f"item {item.id}: no 'image' field and no generator configured (set generator=<name>)")
        return to_rgb(self.generator.generate(item.prompt, seed=self.seed + 1000 * index))

    def refine_item(
        self, item: Item, index: int, item_dir: Path, on_iteration: Callable[[], None] = lambda: None
    ) -> ItemResult:
        """Refine one item into ``item_dir`` (which must be empty).

        Raises:
            ItemError: bad input (image, no generator); ``ItemWriteError`` when one of its files
                cannot be written (disk full), naming the file.
        """
        result = ItemResult(item.id)
        image = start = self.start_image(item, index)
        best_score, best_image = (-1.0, 0.0), None
        kept: list[tuple[int, list[dict]]] = []  # (iteration, a structured editor's actions)
        verdicts_file, instructions_file = item_dir / "verdicts.jsonl", item_dir / "instructions.jsonl"
        append_lines(verdicts_file, [], item.id)
        append_lines(instructions_file, [], item.id)
        for k in range(self.iterations + 1):
            save_image(image, item_dir / f"iter_{k}.png", item.id)
            verdicts = self.judge_one(image, item)
            append_lines(verdicts_file, record_verdicts(result, item, verdicts, k), item.id)
            scores = score_item(item, verdicts) | {"refuted": refuted(item, verdicts)}
            result.scores.append(scores)
            result.text.append(text_tally(item, verdicts))
            if (scores[self.keep_best_by], -scores["refuted"]) > best_score:
                best_score, best_image, result.best_iteration = (
                    (scores[self.keep_best_by], -scores["refuted"]),
                    image,
                    k,
                )
            on_iteration()

            failures: list[Failure] = [
                (c, verdicts[c.id]) for c in item.rubric.checks if c.id in verdicts and verdicts[c.id].answer == "no"
            ]
            if all(c.id in verdicts and verdicts[c.id].passed for c in item.rubric.checks):
                result.stop_reason = "all checks pass"
                break
            if not failures:
                result.stop_reason = "no failed check to edit (the rest are withheld)"
                break
            if k == self.iterations:
                result.stop_reason = "iterations"
                break
            instruction = self.writer.write(image, item, failures)
            edited = to_rgb(self.editor.edit(image, instruction, failures, seed=self.seed + 1000 * index + k + 1))
            unchanged = edited.size == image.size and edited.tobytes() == image.tobytes()
            image = edited
            record = {
                "iteration": k + 1,
                "writer": self.writer.name,
                "instruction": instruction,
                "failed_checks": [c.id for c, _ in failures],
            }
            actions = None
            if isinstance(self.editor, StructuredEditor):  # its log: what it wrote per string, and why not
                actions = record["editor_actions"] = self.editor.last_actions
                tally_edits(result.edits, actions)
                kept.append((k + 1, actions))
            append_lines(instructions_file, [record], item.id)
            if unchanged:  # the same image again: same verdicts, same skips
                result.stop_reason = unchanged_reason(k + 1, actions)
                break
        save_image(best_image, item_dir / "best.png", item.id)
        if isinstance(self.editor, StructuredEditor) and best_image.size == start.size:
            best_actions = [a for i, acts in kept if i <= result.best_iteration for a in acts]
            result.damage = damaged(start, best_image, best_actions)
        result.best_image = str(Path(item_dir.name) / "best.png")
        down = [
            f"judge {name} failed on {c['failed']} of {c['checks']} checks sent to it ({c['last_error']})"
            for name, c in result.judges.items()
            if c["failed"] and c["failed"] >= self.judge_outage * c["checks"]
        ]
        if down:  # an outage is not an answer: the item fails and a rerun redoes it
            result.error = f"item {item.id}: " + "; ".join(down)
        return result

    def fingerprint(self, item: Item) -> str:
        """What ``item``'s result is made from (``rewards.fingerprint.item_fingerprint``): its
        prompt, rubric and start image's bytes, and the loop's settings but the data's path."""
        settings = {"iterations": self.iterations, "keep_best_by": self.keep_best_by, "seed": self.seed}
        return item_fingerprint(item, settings | {k: v for k, v in self.run_settings.items() if k != "data"})

    def finished(self, items: Sequence[Item], out: Path) -> int:
        """How many of ``items`` already have a readable ``result.json`` in ``out`` made from the
        item as it is now (a rerun skips them)."""
        dirs = item_dir_names([it.id for it in items])
        return sum(
            read_result(out / name / "result.json", self.fingerprint(it)) is not None for it, name in zip(items, dirs)
        )

    def changed(self, items: Sequence[Item], out: Path) -> int:
        """How many of ``items`` have a readable ``result.json`` in ``out`` made from other data
        (the rubric, prompt or image changed since; or written before fingerprints): a rerun redoes them."""
        dirs = item_dir_names([it.id for it in items])
        return sum(
            read_result(out / name / "result.json") is not None
            and read_result(out / name / "result.json", self.fingerprint(it)) is None
            for it, name in zip(items, dirs)
        )

    def run(
        self,
        items: Sequence[Item],
        out: Path,
        load_errors: Sequence[str] = (),
        progress=None,
        log=None,
        indices: Sequence[int] | None = None,
        workers=None,
    ) -> dict[str, Any]:
        """Refine every item into ``out``, resuming finished items; returns the summary dict.

        Args:
            items: the parsed items.
            out: output folder (created).
            load_errors: one-line errors of rows that did not parse; recorded in the summary.
            progress: a tqdm-like bar (``update(n)``) over items x (iterations + 1), or None.
            log: ``fn(dict)`` called once per finished item with its scores, ``item`` (its index in
                the data), ``item_id`` and ``images`` (``{"initial", "best"}``: paths of its first
                and kept images), or None (``refine.cli.wandb_logger`` makes W&B images of them).
            indices: each item's index in the whole data set, which seeds it (so one shard of the
                data makes the same images as the unsharded run); None = its position in ``items``.
            workers: ``refine.workers.ItemWorkers`` refining the items in worker processes (the
                files, summary, ``log`` rows and bar are this process's, as without them), or
                None: one after the other in this process.

        Returns:
            The summary; when ``summary.json`` could not be written (disk full) its ``errors``
            end with "cannot write <out>/summary.json (<reason>)" (the caller exits non-zero).

        Raises:
            KeyboardInterrupt: passed on after writing ``summary.json`` with ``"complete": false``
                (the items finished so far, possibly none).
        """
        out.mkdir(parents=True, exist_ok=True)
        self.check_settings(out / "run.json")
        results: list[ItemResult] = []
        try:
            self._run_items(
                items, out, load_errors, progress, log, list(indices) if indices is not None else None, results, workers
            )
        except KeyboardInterrupt:
            self.write_summary(out, self.summary(results, load_errors, complete=False))
            raise
        summary = self.summary(results, load_errors)
        self.write_summary(out, summary)
        return summary

    @staticmethod
    def write_summary(out: Path, summary: dict[str, Any]) -> bool:
        """Write ``<out>/summary.json`` (atomically: the old copy stays when the write fails).

        Returns:
            False when it could not be written (disk full): "cannot write <path> (<reason>)" is
            then appended to ``summary["errors"]``.
        """
        path = out / "summary.json"
        try:
            write_json(path, summary)
        except OSError as e:
            summary["errors"].append(f"cannot write {path} ({e.strerror or one_line(str(e))})")
            return False
        return True

    def refine_into(
        self, item: Item, index: int, item_dir: Path, fingerprint: str, tick: Callable[[], None] = lambda: None
    ) -> ItemResult:
        """Refine one item into a fresh ``item_dir`` (whatever was there is removed first) and,
        when it finished without an error, write its ``result.json`` with ``fingerprint`` last.
        The per-item body of :meth:`run`, in this process or in a worker process
        (``refine.workers``); ``tick`` is called after each judge pass.

        Returns:
            The item's result; a failure of this item only (bad input, a full disk, a model or
            judge error) is its ``error``, one line. Ctrl-C (KeyboardInterrupt) is passed on.
        """
        done = item_dir / "result.json"
        shutil.rmtree(item_dir, ignore_errors=True)
        try:
            with writing(item_dir, item.id):
                item_dir.mkdir(parents=True)
            result = self.refine_item(item, index, item_dir, tick)
            if result.error is None:
                with writing(done, item.id):
                    write_json(done, result.__dict__ | {"fingerprint": fingerprint})
        except ItemWriteError as e:  # disk full: what the item wrote is torn (half an image)
            shutil.rmtree(item_dir, ignore_errors=True)
            result = ItemResult(item.id, error=str(e))
        except ItemError as e:
            result = ItemResult(item.id, error=str(e))
        except Exception as e:  # a model, judge or I/O failure fails this item only; Ctrl-C still stops the run
            result = ItemResult(item.id, error=f"item {item.id}: {type(e).__name__}: {e}")
        if result.error:
            result.error = one_line(result.error)
        return result

    def _refined(self, jobs, tick):
        """``(job, result)`` for each job ``(index, item, item_dir, fingerprint)``, refined one
        after the other in this process; ``tick(index)`` after each judge pass."""
        for job in jobs:
            index, item, item_dir, fingerprint = job
            yield job, self.refine_into(item, index, item_dir, fingerprint, tick=lambda: tick(index))  # noqa: B023

    def _run_items(
        self, items, out, load_errors, progress, log, indices, results: list[ItemResult], workers=None
    ) -> None:
        """The body of :meth:`run`: keeps ``results`` (in data order) up to date as items finish,
        and rewrites ``summary.json`` after each. ``workers``: see :meth:`run`."""
        dirs = item_dir_names([it.id for it in items])
        if indices is None:
            indices = list(range(len(items)))
        if len(indices) != len(items):
            raise ValueError(f"indices: {len(indices)} given for {len(items)} items")
        done: dict[int, ItemResult] = {}  # index -> result, kept in data order in `results`
        jobs = []
        for index, item, name in zip(indices, items, dirs):
            fingerprint = self.fingerprint(item)
            finished = read_result(out / name / "result.json", fingerprint)
            if finished is None:
                jobs.append((index, item, out / name, fingerprint))
                continue
            done[index] = finished
            if progress is not None:
                progress.update(self.iterations + 1)
        results[:] = [done[i] for i in indices if i in done]
        steps: dict[int, int] = {}  # index -> judge passes the bar has shown

        def tick(index: int) -> None:
            steps[index] = steps.get(index, 0) + 1
            if progress is not None:
                progress.update(1)

        parallel = workers is not None and len(jobs) > 1  # one item alone is refined here: no process to start
        refined = workers.refine(jobs, tick) if parallel else self._refined(jobs, tick)
        try:
            self._record(refined, progress, log, steps, done, indices, results, out, load_errors)
        except KeyboardInterrupt:  # items a worker finished but this process had not yet taken: on disk, kept
            for index, _, item_dir, fingerprint in jobs:
                if index not in done and (finished := read_result(item_dir / "result.json", fingerprint)):
                    done[index] = finished
            results[:] = [done[i] for i in indices if i in done]
            raise

    def _record(self, refined, progress, log, steps, done, indices, results, out, load_errors) -> None:
        """Take each ``(job, result)`` of ``refined`` as it finishes: the bar, ``done`` and
        ``results`` (data order), the ``log`` row, and ``summary.json`` rewritten."""
        with closing(refined):  # on Ctrl-C, the workers end here, before the summary is written
            for (index, item, item_dir, _), result in refined:
                if progress is not None:
                    progress.update(self.iterations + 1 - steps.get(index, 0))
                    if result.error:
                        progress.write(result.error)
                done[index] = result
                results[:] = [done[i] for i in indices if i in done]
                if log is not None and not result.error:
                    log(
                        {f"initial/{k}": v for k, v in result.scores[0].items()}
                        | {f"best/{k}": v for k, v in result.scores[result.best_iteration].items()}
                        | {"best_iteration": result.best_iteration, "item": index, "item_id": item.id}
                        | {"images": {"initial": item_dir / "iter_0.png", "best": item_dir / "best.png"}}
                    )
                # a copy that cannot be written (disk full) is left as it was: the run's last one reports it
                self.write_summary(out, self.summary(results, load_errors, complete=False))

    def check_settings(self, path: Path) -> None:
        """Record the loop's settings in ``<out>/run.json``; on a rerun, refuse different ones
        (finished items would otherwise mix two settings in one summary).

        Raises:
            rewards.common.run_folder.SettingsError: ``out`` holds a run made with other
                settings (one line; a ValueError).
            ValueError: ``run.json`` cannot be written (disk full; one line).
        """
        settings = {
            "iterations": self.iterations,
            "keep_best_by": self.keep_best_by,
            "seed": self.seed,
            **self.run_settings,
        }
        if not check_settings(path, settings, _settings_refusal(path, settings)):
            try:
                write_json(path, settings)
            except OSError as e:
                reason = e.strerror or one_line(str(e))
                raise ValueError(f"out={path.parent}: cannot write {path.name} ({reason})") from None

    def summary(
        self, results: Sequence[ItemResult], load_errors: Sequence[str], complete: bool = True
    ) -> dict[str, Any]:
        """The run summary of ``results`` (:func:`refine.item_results.run_summary`) with this loop's settings."""
        return run_summary(results, load_errors, self.keep_best_by, self.iterations, complete)
