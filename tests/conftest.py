"""Shared test setup.

- ``tests/`` is on ``sys.path`` (pytest inserts this file's folder), so the helpers beside this
  file (``chat_server``, ``eval_helpers``, ``fuzz_rows``, ``grpo_helpers``, ``refine_rows``) import
  from every test folder. A subprocess that needs them puts the repository root first on its
  ``PYTHONPATH``: ``tests/`` alone would make ``tests/rewards/`` (a folder, no ``__init__``) shadow
  the ``rewards`` package as a namespace package.
- The ``slow`` marker tags tests that start subprocesses, Chromium or several processes:
  ``pytest -m "not slow"`` runs the rest in minutes; CI and the README's test line run all.
- Every test starts with the process's memos of OCR reads empty (``rewards.text.ocr.ocr_cache``),
  so a test that counts or breaks tesseract calls sees its own reads, not an earlier test's.
- The README's test line runs the tests on every core (pytest-xdist, ``-n auto``), at most
  :data:`MAX_WORKERS` processes: each worker imports torch and builds its own tiny models, about
  1-2 GB of memory apiece. Tests write only under their ``tmp_path``; the one folder they share,
  the tiny layout generator under ``checkpoints/``, is built once under a lock
  (``training.diffusion.pretrain.ensure_pretrained``). ``-n 0`` runs them in this process.
- Every test process gives OpenMP one thread (``OMP_THREAD_LIMIT=1`` unless set), as
  ``rubricloop-refine`` gives each tesseract (``rewards/common/threads.py``): N workers on N cores
  with all-core tesseracts spin in each other's waits. On the tenth tester's editor and judge13
  page tests (``-n 0``, a loaded machine) the limit took 59 s of CPU against 83 s without.
- Under pytest-xdist the long tests run first (:func:`pytest_collection_modifyitems`) and an idle
  worker takes tests a busy one has not started (``--dist worksteal``, ``pyproject.toml``): the
  run ends on short tests instead of one worker finishing a two-minute learning test alone.
"""

import os

import pytest

MAX_WORKERS = 8


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker per core this process may use, at most :data:`MAX_WORKERS`."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: starts subprocesses, Chromium or several processes (deselect: -m 'not slow')"
    )
    os.environ.setdefault("RUBRICLOOP_WORKERS", "1")  # rubricloop-refine in one process unless a test says workers=
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")  # before tesserocr or torch loads libgomp, which reads it once


@pytest.fixture(autouse=True)
def _fresh_page_reads():
    from rewards.text.ocr.ocr_cache import forget_reads

    forget_reads()


LONG_FOLDERS = ("tests/training/recipes/", "tests/training/text/")
"""Learning tests (a tiny model trained for tens of steps): most of them run 20-120 s."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, the ``slow`` tests and those in :data:`LONG_FOLDERS` first, each group
    in collection order (every worker sorts the same way, as xdist requires)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    root = str(config.rootpath) + os.sep

    def long(item: pytest.Item) -> bool:
        path = str(item.path).removeprefix(root)
        return item.get_closest_marker("slow") is not None or path.startswith(LONG_FOLDERS)

    items.sort(key=lambda item: not long(item))
