"""Synthetic documents and their truth: seeded pages rendered with Pillow, matplotlib and headless
Chromium, each with the ground truth of what was drawn (strings, boxes, injected errors, labelled
questions), byte for byte the same for a seed, Pillow version and font files.

Shared parts, lowest first:

- ``fonts``: the DejaVu and Liberation files by family, weight and slant (also the text editor's
  type matcher's candidate faces);
- ``drawing``: word wrap, text turned 90 degrees, gradients, luminance;
- ``errors``: the text errors generators make (dropped, swapped or look-alike characters, missing
  strings, wrong digits and dates, missing or swapped words, near misses);
- ``layout``: a page laid out once and drawn twice (clean and with errors), with ink boxes;
- ``pages``: split seeds and JSON-lines rows.

The sets, each keeping its seeds:

- ``adversarial``: clean and erroneous pages with element truth and rubric questions (the
  adversarial refine report; ``python -m documents.adversarial``);
- ``fidelity``: labelled documents for ``rubricloop-judge-bench``;
- ``example``: the bundled refine example's start images (``python -m refine.example.render``);
- ``editor_pages`` and ``ocr_pages``: the documents of ``benchmarks/text_editor.py`` and
  ``benchmarks/ocr_recall.py``;
- ``engines``: charts drawn by matplotlib and HTML pages drawn by headless Chromium, with the
  truth the engines give (text extents, DOM ranges), clean and with defects, and an oracle VLM
  server that answers from that truth (``benchmarks/engine_judge.py``).

May import: the standard library, third-party packages, ``rewards.common``, ``rewards.text`` and
the core modules at the top of ``rewards`` (``rubric``, ``importers``). Never a judge, a scorer,
``refine``, ``training`` or ``evaluation`` (``tests/test_import_rules.py`` ranks it between the
rewards core and the judges); ``evaluation``, ``refine``, ``benchmarks/`` and ``scripts/`` import it.
"""
