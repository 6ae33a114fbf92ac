"""``rubricloop-refine workers=N``: refine items in N worker processes, one item at a time each.

The run's own process keeps everything a run shares: the ``out`` lock, ``summary.json`` after
each finished item, the W&B rows and the progress bar (``RefineLoop.run`` with ``workers=``).
Each worker process builds its own judge, writer, editor and generator from the composed config
(models are never pickled) and runs :meth:`refine.loop.RefineLoop.refine_into` on the items it
is given, returning each ``ItemResult``.

Each worker is its own ``concurrent.futures.ProcessPoolExecutor`` of one process (the "spawn"
start method: torch and fork do not mix), so a worker that dies (killed, out of memory, a model
calling ``os._exit``) breaks only its own pool: its unfinished item fails with one line and no
``result.json`` (the next run redoes it), a fresh worker takes its place, and the other items
finish. Workers ignore SIGINT; on Ctrl-C the run ends them (SIGTERM) and writes its summary.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import signal
import tempfile
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.managers import SyncManager
from pathlib import Path
from typing import Any, Callable, Iterator

from omegaconf import OmegaConf

from refine.item_results import ItemResult
from refine.loop import RefineLoop
from rewards.common.components import build_component
from rewards.common.one_line import one_line
from rewards.common.run_folder import QuietFileHandler
from rewards.common.secrets import RedactingFilter
from rewards.common.threads import limit_ocr_threads

COMPONENTS = ("judge", "writer", "editor", "generator")

_worker: dict[str, Any] = {}
"""In a worker process: its ``loop`` and the ``ticks`` queue (set by :func:`_start_worker`)."""


def _die_with_the_run(run_pid: int) -> None:
    """In a worker or the manager process: leave Ctrl-C to the run, and end (SIGTERM) when the
    run's process dies, even by SIGKILL (Linux ``prctl(PR_SET_PDEATHSIG)``; elsewhere only the
    first). Without it a killed run left its workers blocked forever on the dead run's queue,
    holding their memory (a tester found two at 800 MB)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # no prctl: macOS, Windows
        return
    if os.getppid() != run_pid:  # the run died before the call above
        os.kill(os.getpid(), signal.SIGTERM)


def _start_worker(parts: dict, loop_kwargs: dict, out: str, log_name: str, ticks, run_pid: int) -> None:
    """A worker process's initializer: leave Ctrl-C to the run and end with it, keep temporary
    files and log records where the run keeps its own, and build the components once."""
    _die_with_the_run(run_pid)
    limit_ocr_threads()  # inherited from the run already; a no-op then
    tempfile.tempdir = str(Path(out) / ".tmp")
    handler = QuietFileHandler(Path(out) / log_name)
    handler.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s %(name)s[{os.getpid()}]: %(message)s"))
    handler.addFilter(RedactingFilter())
    logging.getLogger().addHandler(handler)
    cfg = OmegaConf.create(parts)
    _worker["loop"] = RefineLoop(*(build_component(cfg, k) for k in COMPONENTS), **loop_kwargs)
    _worker["ticks"] = ticks


def _refine_in_worker(index: int, item, item_dir: Path, fingerprint: str) -> ItemResult:
    """Runs in a worker: says which process took the item, then refines it (ticks per judge pass)."""
    ticks = _worker["ticks"]
    ticks.put(("start", index, os.getpid()))
    return _worker["loop"].refine_into(item, index, item_dir, fingerprint, tick=lambda: ticks.put(("tick", index)))


class ItemWorkers:
    """N worker processes for :meth:`refine.loop.RefineLoop.run` (its ``workers=``).

    Args:
        n: number of worker processes (at most one per item to do is started).
        parts: the composed config of each component, ``{"judge": {...}, "writer": {...},
            "editor": {...}, "generator": {...} | None}`` (plain containers, as
            ``OmegaConf.to_container(cfg[k], resolve=True)``), built in each worker.
        loop_kwargs: the ``RefineLoop`` settings but the components (iterations, keep_best_by,
            seed, run_settings, judge_outage): the same as the run's own loop.
        out: the run folder (workers keep temporary files in ``<out>/.tmp``, log to ``<out>/<log_name>``).
        log_name: the run's log file in ``out``.

    Raises:
        ValueError: ``n`` < 1.
    """

    def __init__(self, n: int, parts: dict, loop_kwargs: dict, out: Path, log_name: str = "refine.log"):
        if n < 1:
            raise ValueError(f"workers must be >= 1, got {n}")
        self.n, self.parts, self.loop_kwargs, self.out, self.log_name = n, parts, loop_kwargs, out, log_name

    def refine(
        self, jobs: list[tuple[int, Any, Path, str]], tick: Callable[[int], None]
    ) -> Iterator[tuple[tuple, ItemResult]]:
        """``(job, result)`` for each job ``(index, item, item_dir, fingerprint)`` as it finishes
        (in any order); ``tick(index)`` after each judge pass of the item ``index``.

        An item whose worker died, or whose worker raised past ``refine_into`` (a SystemExit from
        a model), fails with one line; the others go on. A KeyboardInterrupt here ends every
        worker (SIGTERM) before it is passed on.
        """
        if not jobs:
            return
        ctx = multiprocessing.get_context("spawn")
        manager = SyncManager(ctx=ctx)
        manager.start(_die_with_the_run, (os.getpid(),))  # a Ctrl-C is the run's to handle
        with manager:
            ticks = manager.Queue()
            pools: list[ProcessPoolExecutor] = []
            running: dict[Any, tuple[int, tuple]] = {}  # future -> (worker slot, job)
            pids: dict[int, int] = {}  # item index -> pid of the worker refining it

            def new_pool() -> ProcessPoolExecutor:
                args = (self.parts, self.loop_kwargs, str(self.out), self.log_name, ticks, os.getpid())
                return ProcessPoolExecutor(1, mp_context=ctx, initializer=_start_worker, initargs=args)

            def drain() -> None:
                while not ticks.empty():
                    kind, index, *pid = ticks.get_nowait()
                    if kind == "start":
                        pids[index] = pid[0]
                    else:
                        tick(index)

            pending = deque(jobs)
            try:
                pools.extend(new_pool() for _ in range(min(self.n, len(jobs))))
                while pending or running:
                    busy = {slot for slot, _ in running.values()}
                    for slot in range(len(pools)):
                        if pending and slot not in busy:
                            job = pending.popleft()
                            running[pools[slot].submit(_refine_in_worker, *job)] = (slot, job)
                    finished, _ = wait(running, timeout=0.25, return_when=FIRST_COMPLETED)
                    drain()
                    for future in finished:
                        slot, job = running.pop(future)
                        yield job, self._result(future, job, pids.pop(job[0], None))
                        if isinstance(future.exception(), BrokenProcessPool):  # a fresh worker takes its place
                            pools[slot].shutdown(wait=False)
                            pools[slot] = new_pool()
            finally:
                try:
                    drain()  # the pids of items just started
                except Exception:
                    pass
                for _, job in running.values():  # Ctrl-C (or the caller stopped early): end the busy workers
                    if job[0] in pids:
                        try:
                            os.kill(pids[job[0]], signal.SIGTERM)
                        except ProcessLookupError:
                            pass
                for pool in pools:
                    pool.shutdown(wait=True, cancel_futures=True)

    @staticmethod
    def _result(future, job: tuple, pid: int | None) -> ItemResult:
        """The finished future's ItemResult, or the item failed in one line when its worker died
        or raised (a BaseException ``refine_into`` lets through)."""
        item_id = job[1].id
        error = future.exception()
        if error is None:
            return future.result()
        if isinstance(error, BrokenProcessPool):
            who = f"its worker process (pid {pid})" if pid is not None else "its worker process"
            return ItemResult(item_id, error=one_line(f"item {item_id}: {who} died before the item finished"))
        return ItemResult(item_id, error=one_line(f"item {item_id}: {type(error).__name__}: {error}"))
