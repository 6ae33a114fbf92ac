"""How many threads the OCR engine (tesseract) may use: one per process, unless the user said otherwise.

tesseract's OpenMP build splits fine inner loops across threads that spin while they wait: on the
2 cores here one default read of the bundled example took 1.3x the wall time and 1.5x the CPU time
of the same read with ``OMP_THREAD_LIMIT=1``, and several processes with all-core tesseracts fight
far worse (tesseract-ocr/tesseract issues #3109 and #1035; its maintainers turned OpenMP off by
default in 5.0.1). So each process gives its tesseract one thread and the cores go to items run in
parallel instead (``rubricloop-refine workers=``, default one per core): N workers x 1 thread never
oversubscribe N cores.

The limit is set in ``os.environ`` before the first read: a ``tesseract`` command (pytesseract)
starts with this process's environment, and tesserocr (tesseract in this process,
``rewards.text.ocr.tesseract_engine``) loads its libgomp at the first read. libgomp reads
``OMP_THREAD_LIMIT`` when it loads, so torch (OpenMP) in a process that loads it afterwards, and
in every worker process started afterwards, is held to the same limit: a CPU-bound torch model
wants ``OMP_THREAD_LIMIT`` set by the user (which is kept).
"""

from __future__ import annotations

import os

OCR_THREADS = 1
"""Threads per tesseract process when the environment does not name a limit."""


def limit_ocr_threads() -> str:
    """Set ``OMP_THREAD_LIMIT`` to :data:`OCR_THREADS` in ``os.environ`` unless it is already set
    (a value the user set, even an empty one, is never overridden).

    Returns:
        The value in force afterwards, as a string ("1", or the user's).
    """
    return os.environ.setdefault("OMP_THREAD_LIMIT", str(OCR_THREADS))


def usable_cores() -> int:
    """The CPU cores this process may run on (its affinity mask: ``taskset``, a cgroup cpuset),
    else ``os.cpu_count()``, at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows: no affinity call
        return max(1, os.cpu_count() or 1)
