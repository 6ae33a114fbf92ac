"""Plumbing every console script shares: images, one-line errors, shards, run folders, W&B mode.

May import: the standard library and third-party packages only (no ``rewards``, ``refine`` or
``training`` module).
"""
