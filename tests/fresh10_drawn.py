"""The tenth tester's pages (``benchmarks/fresh10_pages.py``) drawn for a test (``tester_drawn``)."""

from __future__ import annotations

from functools import partial

from tester_drawn import changed_outside, draw_from

from benchmarks import fresh10_pages

draw = partial(draw_from, fresh10_pages.SET)
__all__ = ["changed_outside", "draw"]
