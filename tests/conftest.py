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
"""

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: starts subprocesses, Chromium or several processes (deselect: -m 'not slow')"
    )
    os.environ.setdefault("RUBRICLOOP_WORKERS", "1")  # rubricloop-refine in one process unless a test says workers=


@pytest.fixture(autouse=True)
def _fresh_page_reads():
    from rewards.text.ocr.ocr_cache import forget_reads

    forget_reads()
