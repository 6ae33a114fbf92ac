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

import hashlib
import json
import re
import shutil
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from PIL import Image

from refine.edit_audit import damaged
from refine.editors.edit_log import tally_edits
from refine.interfaces import Editor, Failure, Generator, StructuredEditor, Writer
from rewards.common.images import to_rgb
from rewards.common.items import ItemError, ItemWriteError, load_item_image, writing
from rewards.common.one_line import one_line
from rewards.common.run_folder import check_settings, write_json
from rewards.fingerprint import item_fingerprint
from rewards.judges.base import Judge
from rewards.judges.outage import call_error
from rewards.rubric import Item, Verdict, verdict_record
from rewards.scorers.item_scores import ITEM_SCORES, score_item


@dataclass
class ItemResult:
    """What the loop records for one item.

    Attributes:
        id: item id.
        scores: per iteration, every score of ``rewards.scorers.item_scores.score_item`` (floats in [0, 1]).
        best_iteration: index into ``scores`` of the kept iteration (by ``keep_best_by``).
        best_image: path of ``best.png``, relative to ``out``.
        stop_reason: why the loop ended ("iterations", "all checks pass", "no failed check to edit",
            "stopped after iteration k: the edit changed nothing (...)", see :func:`unchanged_reason`).
        withheld: reason -> number of withheld verdicts over all iterations (a dead judge shows here).
        judges: judge name -> {"checks": verdicts it gave over all iterations (not from the verdict
            cache), "failed": those withheld because its call failed (see :func:`call_error`),
            "last_error": str | None}.
        edits: what a structured editor did to the expected strings: distinct strings "added",
            "rewritten" and "left_alone" (see ``refine.editors.edit_log.tally_edits``).
        text: per iteration, the item's text checks (those with text expectations: the strings the
            text editor fixes) as counts, {"checks", "decided", "passed", "refuted", "read"} (:func:`text_tally`).
        damage: for a structured editor, the pixels of ``best.png`` changed from the start image
            that are glyphs of neither the words its kept actions replaced nor the strings they
            wrote: {"damaged_px": int, "damage_boxes": [[x0, y0, x1, y1], ...]}
            (``refine.edit_audit.damaged``); {} for other editors (and an image resized).
        error: one-line error, or None.
    """

    id: str
    scores: list[dict[str, float]] = field(default_factory=list)
    best_iteration: int | None = None
    best_image: str | None = None
    stop_reason: str | None = None
    withheld: dict[str, int] = field(default_factory=dict)
    judges: dict[str, dict[str, Any]] = field(default_factory=dict)
    edits: dict[str, Any] = field(default_factory=dict)
    text: list[dict[str, int]] = field(default_factory=list)
    damage: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


RUN_FILES = {"summary.json", "summary.json.tmp", "run.json", "run.json.tmp", "refine.log", "wandb"}
"""Names the run itself uses in ``out``; an item folder never takes one of them."""


def _id_hash(item_id: str) -> str:
    """The sha1 of an id's UTF-8 bytes, in hex (a lone surrogate, which JSON allows, too)."""
    return hashlib.sha1(item_id.encode("utf-8", "surrogatepass")).hexdigest()


def item_dir_name(item_id: str) -> str:
    """A file-system-safe folder name for an item id: characters outside ``[A-Za-z0-9._-]``
    become ``_``; a name starting with a dot or equal to one of ``RUN_FILES`` gets a ``_``
    prefix (so no id can name the output folder, its parent, or the run's own files); a name
    over 100 characters is cut to 91 plus a hash of the id."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", item_id) or "_"
    if len(name) > 100:
        name = f"{name[:91]}-{_id_hash(item_id)[:8]}"
    return "_" + name if name.startswith(".") or name in RUN_FILES else name


def item_dir_names(ids: Sequence[str]) -> list[str]:
    """``item_dir_name`` of each (distinct) id; ids whose names would share a folder ("a b",
    "a_b"; "A", "a" on a case-blind disk) get ``+`` and a hash of the id appended, so every item
    has its own folder and reruns with the same ids find the same ones, in any order.

    ``item_dir_name`` never makes a ``+``, so a hashed name can only clash with another hashed
    name of the same base and the same 8 hash digits; those take the whole sha1 instead."""
    names = [item_dir_name(i) for i in ids]
    for digits in (8, 40):
        counts: dict[str, int] = {}
        for n in names:
            counts[n.casefold()] = counts.get(n.casefold(), 0) + 1
        names = [
            f"{item_dir_name(i)}+{_id_hash(i)[:digits]}" if counts[n.casefold()] > 1 else n for n, i in zip(names, ids)
        ]
    return names


def read_result(path: Path, fingerprint: str | None = None) -> "ItemResult | None":
    """The finished item's result, or None (redo the item) when ``path`` is missing or unreadable,
    or, given the item's ``fingerprint`` (:meth:`RefineLoop.fingerprint`), when it records another
    one (made from other data) or none (written before fingerprints)."""
    if not path.is_file():  # missing, or a FIFO that would block the read forever
        return None
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))
        made_from = recorded.pop("fingerprint", None)
        result = ItemResult(**recorded)
    except (OSError, ValueError, TypeError, AttributeError):  # AttributeError: JSON that is not an object
        return None
    return None if fingerprint is not None and made_from != fingerprint else result


def refuted(item: Item, verdicts: dict[str, Verdict]) -> float:
    """Fraction of the item's checks answered "no" (withheld and missing are not refutations);
    recorded beside the item scores and used to break ties of ``keep_best_by``."""
    checks = item.rubric.checks
    return sum(c.id in verdicts and verdicts[c.id].answer == "no" for c in checks) / len(checks) if checks else 0.0


def text_tally(item: Item, verdicts: dict[str, Verdict]) -> dict[str, int]:
    """Counts over the item's text checks (checks with ``expects``: quoted strings, what the OCR
    judge reads and the text editor fixes): ``checks``; ``decided`` (answered yes or no), ``passed``
    (yes) and ``refuted`` (no); and ``read``: checks whose every quoted string the judge read, those
    answered yes and those withheld only for parts a VLM must decide (``evidence["expects"]`` all
    ``found``). Withheld and missing verdicts are neither passed nor refuted."""
    passed = refuted = read = 0
    checks = [c for c in item.rubric.checks if c.expects]
    for c in checks:
        v = verdicts.get(c.id)
        if v is None:
            continue
        passed += v.answer == "yes"
        refuted += v.answer == "no"
        records = (v.evidence or {}).get("expects") or []
        read += v.answer == "yes" or (v.answer == "withheld" and bool(records) and all(r.get("found") for r in records))
    return {"checks": len(checks), "decided": passed + refuted, "passed": passed, "refuted": refuted, "read": read}


def text_summary(results: Sequence[ItemResult]) -> dict[str, Any]:
    """The text tallies (:func:`text_tally`) summed over the finished ``results`` at their start
    image (``start``) and at their kept iteration (``best``): {"checks": int, "items": int,
    "start": {"decided", "passed", "refuted", "read"}, "best": {...}}. Items recorded before tallies
    existed (a resumed older run) are left out, and ``items`` says how many were counted."""
    counted = [r for r in results if r.text and r.best_iteration is not None]
    keys = ("decided", "passed", "refuted", "read")
    return {
        "checks": sum(r.text[0]["checks"] for r in counted),
        "items": len(counted),
        "start": {k: sum(r.text[0][k] for r in counted) for k in keys},
        "best": {k: sum(r.text[r.best_iteration][k] for r in counted) for k in keys},
    }


def unchanged_reason(iteration: int, actions: list[dict] | None) -> str:
    """The stop reason of an edit (iteration ``iteration``) that changed no pixel, with what a
    structured editor's ``actions`` did: "stopped after iteration 2: the edit changed nothing
    (all 3 actions skipped)"; ``actions`` None (an editor that keeps no log): no parenthesis."""
    head = f"stopped after iteration {iteration}: the edit changed nothing"
    if actions is None:
        return head
    if not actions:
        return f"{head} (no action)"
    kinds = {"skipped": 0, "failed": 0, "written": 0}
    for a in actions:
        verb = a["action"]
        kinds["skipped" if verb.startswith("skip") else "failed" if verb.startswith("fail") else "written"] += 1
    n = len(actions)
    for kind, count in kinds.items():
        if count == n:
            what = f"all {n} actions {kind}" if n > 1 else f"its one action {kind}"
            break
    else:
        what = f"{n} actions: " + ", ".join(f"{c} {k}" for k, c in kinds.items() if c)
    if kinds["written"]:
        what += " without changing a pixel"
    return f"{head} ({what})"


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
            lines = []
            for check in item.rubric.checks:
                v = verdicts.get(check.id) or Verdict(check.id, "withheld", "loop", "judge returned no verdict")
                if v.answer == "withheld":
                    result.withheld[v.reason] = result.withheld.get(v.reason, 0) + 1
                if v.judge not in ("router", "loop") and not (v.evidence or {}).get(
                    "cached"
                ):  # a cached verdict made no call
                    calls = result.judges.setdefault(v.judge, {"checks": 0, "failed": 0, "last_error": None})
                    calls["checks"] += 1
                    if (error := call_error(v)) is not None:
                        calls["failed"] += 1
                        calls["last_error"] = error
                lines.append({"iteration": k, **verdict_record(item, check, v)})  # the record judge and eval write
            append_lines(verdicts_file, lines, item.id)
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
        """The run summary: per item results, means of the initial and best scores over the
        items that finished, every error (parse errors first), and per judge its verdicts,
        failed calls and the items it failed (``judges``), the pixels damaged over the items a
        structured editor edited (``damaged_px``: the sum of their ``damage``, and
        ``items_damaged``: how many have any) and the items whose loop ended on an edit that
        changed nothing (``stopped_unchanged``: item id -> stop reason). ``complete`` is False
        in the copy written after each item (an interrupted run leaves that one)."""
        judges: dict[str, dict[str, Any]] = {}
        for r in results:
            for name, c in r.judges.items():
                j = judges.setdefault(name, {"checks": 0, "failed": 0, "items_failed": 0, "last_error": None})
                j["checks"] += c["checks"]
                j["failed"] += c["failed"]
                j["last_error"] = c["last_error"] or j["last_error"]
                j["items_failed"] += bool(r.error and f"judge {name} failed on" in r.error)
        ok = [r for r in results if r.error is None]
        withheld: dict[str, int] = {}
        for r in ok:
            for reason, n in r.withheld.items():
                withheld[reason] = withheld.get(reason, 0) + n
        names = list(ok[0].scores[0]) if ok else list(ITEM_SCORES) + ["coverage"]

        def mean(key: str, pick: Callable[[ItemResult], dict[str, float]]) -> float | None:
            return sum(pick(r)[key] for r in ok) / len(ok) if ok else None

        return {
            "complete": complete,
            "keep_best_by": self.keep_best_by,
            "iterations": self.iterations,
            "n_items": len(results) + len(load_errors),
            "n_finished": len(ok),
            "n_failed": len(results) - len(ok) + len(load_errors),
            "judges": judges,
            "mean_initial": {k: mean(k, lambda r: r.scores[0]) for k in names},
            "mean_best": {k: mean(k, lambda r: r.scores[r.best_iteration]) for k in names},
            "errors": list(load_errors) + [r.error for r in results if r.error],
            "withheld": dict(sorted(withheld.items(), key=lambda kv: -kv[1])),
            "text_checks": text_summary(ok),
            "damaged_px": sum(r.damage.get("damaged_px", 0) for r in ok),
            "items_damaged": sum(bool(r.damage.get("damaged_px")) for r in ok),
            "stopped_unchanged": {
                r.id: r.stop_reason for r in ok if (r.stop_reason or "").startswith("stopped after iteration")
            },
            "items": [r.__dict__ for r in results],
        }
