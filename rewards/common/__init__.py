"""Plumbing every console script shares: images, one-line errors, shards, W&B mode, the run
folder (``run_folder``), building components from config (``components``), per-item failures
(``items``) and the console-script wrapper (``task``).

May import: the standard library, third-party packages and ``rewards.common`` itself only (no
other ``rewards``, ``refine`` or ``training`` module).
"""
