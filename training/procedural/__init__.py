"""The procedural data wing: prompts and checks rendered in code, no download.

* ``item_split``: the distinct prompts and the seeded train/validation split;
* ``data``: ``make_dataset`` (``data.task=documents``: OCR-checked slides, charts, posters;
  ``data.task=layout``: checks the layout judge decides from pixels, from ``layout_data``);
* ``layout_pages``: the layout items' pages drawn (``training.diffusion.pretrain`` learns from them).

Imports no other part of ``training``.
"""
