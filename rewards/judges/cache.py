"""A verdict cache on disk: a check already judged on the same image by the same judge is not
asked again, so a rerun, a resumed evaluation or a refine iteration that did not change an image
costs no model calls for it.

One SQLite file (stdlib ``sqlite3``), one table ``verdicts(key, verdict, created)``. The key is
the SHA-256 of:

- the image's content: its mode, size and decoded pixel bytes (``image_hash``), so the same
  pixels hit whatever file they came from;
- the check's question and spec: ``json.dumps(dataclasses.asdict(check), sort_keys=True,
  default=str)``, every field of :class:`rewards.rubric.Check` (fields added later are included
  automatically);
- the generation prompt (the per-check VLM protocols show it to the judge);
- the judge's identity and configuration (``judge_identity``): a judge's ``cache_identity()``
  when it has one (the VLM judges name their model, server, protocol, options and a hash of
  their prompt texts), otherwise its class and public plain-valued attributes. API keys are
  never part of it: judges hold only the name of the environment variable, and attributes named
  like a key, token, secret or password are left out.

A verdict served from the cache carries ``evidence["cached"] = True`` (otherwise it equals the
stored one): it was not sent to the judge this time, so counts of a judge's calls, such as the
refine loop's outage detection (a judge whose calls all fail fails the item), should skip it.

A judge goes behind the cache one way, :class:`CachedJudge` (:class:`VerdictCache` is the storage
alone): ``Router(judges, cache=<path>)`` (Hydra ``judge.cache=<path>``) puts its routing behind
one, ``RubricReward(judge, cache=<path>)`` its judge.

Only yes/no verdicts are stored. A withheld verdict (a failed request, an unreadable answer) is
asked again next time, so an outage is never cached as an answer. Each batch of new verdicts is
written in one transaction: SQLite's journal makes it atomic, so a process killed mid-write
leaves the cache as it was before that batch (tested by killing a writer). Several processes
may share one file (SQLite's locks; writers wait up to ``timeout_s``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import re
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Sequence

from PIL import Image

from rewards.rubric import Check, Verdict

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 1
"""Part of every key: bump it when the meaning of a stored verdict changes."""

_SECRET_NAME = re.compile(r"key|token|secret|password", re.I)


def image_hash(image: Image.Image) -> str:
    """SHA-256 hex digest of an image's mode, size and decoded pixel bytes (``Image.tobytes``).

    Raises:
        OSError, ValueError: the image cannot be decoded (whatever PIL raises).
    """
    h = hashlib.sha256(f"{image.mode}|{image.width}x{image.height}|".encode())
    h.update(image.tobytes())
    return h.hexdigest()


def check_spec(check: Check) -> str:
    """Every field of ``check`` as canonical JSON (the part of the key that names the check)."""
    return json.dumps(dataclasses.asdict(check), sort_keys=True, default=str)


def _plain(value: Any) -> bool:
    if value is None or isinstance(value, (str, int, float, bool)):
        return True
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


def judge_identity(judge: Any) -> dict[str, Any]:
    """What decides a judge's verdicts: ``judge.cache_identity()`` when defined, else the class
    name and every public attribute with a plain value (str, number, bool, None, lists and dicts
    of those), leaving out names like key/token/secret/password (``*_env`` names are kept)."""
    if hasattr(judge, "cache_identity"):
        return judge.cache_identity()
    attrs = {
        k: v
        for k, v in sorted(vars(judge).items())
        if not k.startswith("_") and _plain(v) and (k.endswith("_env") or not _SECRET_NAME.search(k))
    }
    return {"class": f"{type(judge).__module__}.{type(judge).__qualname__}", **attrs}


def judge_settings(judge_cfg: dict[str, Any]) -> dict[str, Any]:
    """The judge's config as a resumed run must share it (``run.json``): without ``cache``,
    since the verdict cache changes no verdict, so a resume may add, move or drop it."""
    return {k: v for k, v in judge_cfg.items() if k != "cache"}


class VerdictCache:
    """Yes/no verdicts of one judge configuration, stored in a SQLite file.

    Args:
        path: the SQLite file; created (with its folder) when missing.
        identity: the judge's identity (``judge_identity``); JSON-serialisable.
        timeout_s: how long a write waits for another process's lock, in seconds.

    Attributes:
        hits, misses: checks answered from the cache / passed on to the judge, so far (counted
            by :class:`CachedJudge`).

    Raises:
        ValueError: ``path`` exists and is not a SQLite database, or cannot be opened (one line
            naming the file).
    """

    def __init__(self, path: str | Path, identity: dict[str, Any], timeout_s: float = 60.0):
        self.path = Path(path)
        self.identity = identity
        self._judge_key = hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()
        self._lock = threading.Lock()
        self.hits = self.misses = 0
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=timeout_s, check_same_thread=False)
            with self._db:
                self._db.execute(
                    "CREATE TABLE IF NOT EXISTS verdicts "
                    "(key TEXT PRIMARY KEY, verdict TEXT NOT NULL, created REAL NOT NULL)"
                )
        except (sqlite3.Error, OSError) as e:
            raise ValueError(f"judge.cache={self.path}: cannot use it as a verdict cache: {e}") from None

    def key(self, image_digest: str, prompt: str, check: Check) -> str:
        """The row key of one (image, prompt, check) for this judge (module docstring)."""
        parts = [SCHEMA_VERSION, self._judge_key, image_digest, prompt, check_spec(check)]
        return hashlib.sha256(json.dumps(parts).encode()).hexdigest()

    def get(self, keys: Sequence[str]) -> dict[str, Verdict]:
        """The stored verdicts among ``keys``, marked ``evidence["cached"] = True`` (a row that no
        longer parses counts as missing)."""
        found: dict[str, Verdict] = {}
        with self._lock:
            for lo in range(0, len(keys), 500):  # SQLite limits the number of bound parameters
                chunk = list(keys[lo : lo + 500])
                marks = ",".join("?" * len(chunk))
                for key, text in self._db.execute(f"SELECT key, verdict FROM verdicts WHERE key IN ({marks})", chunk):
                    try:
                        verdict = Verdict.from_dict(json.loads(text))
                        found[key] = dataclasses.replace(verdict, evidence={**(verdict.evidence or {}), "cached": True})
                    except (ValueError, TypeError):
                        logger.warning("verdict cache %s: unreadable row %s ignored", self.path, key[:12])
        return found

    def put(self, rows: Sequence[tuple[str, Verdict]]) -> None:
        """Store ``(key, verdict)`` rows in one transaction (all or none); withheld verdicts are
        skipped."""
        rows = [(k, json.dumps(v.to_dict(), default=str), time.time()) for k, v in rows if v.answer != "withheld"]
        if not rows:
            return
        with self._lock, self._db:
            self._db.executemany("INSERT OR REPLACE INTO verdicts (key, verdict, created) VALUES (?, ?, ?)", rows)

    def keys(
        self, images: Sequence[Image.Image], prompts: Sequence[str], checks: Sequence[Sequence[Check]]
    ) -> list[list[str | None]]:
        """The row key of every ``checks[i][j]`` on ``images[i]`` with ``prompts[i]``; None for
        the checks of an image that cannot be hashed (undecodable: it is passed on uncached, and
        the judge withholds it with the real reason)."""
        keys: list[list[str | None]] = []
        for image, prompt, cs in zip(images, prompts, checks):
            try:
                digest = image_hash(image)
            except Exception:
                keys.append([None] * len(cs))
                continue
            keys.append([self.key(digest, prompt, c) for c in cs])
        return keys

    def close(self) -> None:
        self._db.close()


class CachedJudge:
    """Any judge behind a :class:`VerdictCache` (same ``name`` and ``can_answer``): the one way a
    judge is cached (module docstring).

    Args:
        judge: the judge to ask on a miss.
        path: the SQLite file of the cache.

    Attributes:
        cache: the :class:`VerdictCache`, keyed by ``judge_identity(judge)``.

    Raises:
        ValueError: as :class:`VerdictCache`.
    """

    def __init__(self, judge: Any, path: str | Path):
        self.inner = judge
        self.name = judge.name
        self.cache = VerdictCache(path, judge_identity(judge))

    def can_answer(self, check: Check) -> bool:
        return self.inner.can_answer(check)

    def cache_identity(self) -> dict[str, Any]:
        return judge_identity(self.inner)

    def judge(
        self, images: Sequence[Image.Image], prompts: Sequence[str], checks: Sequence[Sequence[Check]]
    ) -> list[list[Verdict]]:
        """As :meth:`rewards.judges.base.Judge.judge`: the inner judge is asked only the checks
        not in the cache (not at all when every check is cached), its answers are merged with the
        cached verdicts in the original order, and its new yes/no verdicts are stored."""
        keys = self.cache.keys(images, prompts, checks)
        cached = self.cache.get([k for row in keys for k in row if k is not None])
        out: list[list[Verdict | None]] = [[cached.get(k) if k else None for k in row] for row in keys]

        todo = [(i, [j for j, v in enumerate(row) if v is None]) for i, row in enumerate(out)]
        todo = [(i, js) for i, js in todo if js]
        n_missing = sum(len(js) for _, js in todo)
        self.cache.hits += sum(len(cs) for cs in checks) - n_missing
        self.cache.misses += n_missing
        if todo:
            fresh = self.inner.judge(
                [images[i] for i, _ in todo],
                [prompts[i] for i, _ in todo],
                [[checks[i][j] for j in js] for i, js in todo],
            )
            new_rows = []
            for (i, js), verdicts in zip(todo, fresh):
                for j, v in zip(js, verdicts):
                    out[i][j] = v
                    if keys[i][j] is not None:
                        new_rows.append((keys[i][j], v))
            self.cache.put(new_rows)
        return out  # type: ignore[return-value]  # every position was filled
