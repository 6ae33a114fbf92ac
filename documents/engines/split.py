"""Documents and splits of the engine-drawn set: draw, cache, load and write them as rubric rows.

``make_doc(engine, seed, split, folder, browser)`` draws one document of ``engine`` (its kind
is ``KINDS[engine][seed % len]``): content from ``random.Random(seed)`` (a per-engine offset
keeps the two engines' draws apart), defects from a second generator, both variants drawn by
the engine, the truth from the engine, and the questions (:mod:`.questions`). Files in
``folder``: ``<id>_clean.png``, ``<id>_defect.png``, ``<id>_truth.json`` (``Doc.truth``).

``build_split(split, engine, folder, n)`` draws (or loads, when the truth file of the same
``VERSION`` is there) the split's documents: dev = seeds 0..n-1, report = seeds 1000..1000+n-1.
Nobody tunes on report. ``write_rows(docs, folder)`` writes ``rows.jsonl`` for
``rubricloop-judge`` / ``rubricloop-eval`` (one row per document and page, its questions as
checks, the truth in ``meta``) and ``truth.json`` (every document's truth).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from documents.engines.browser import Browser
from documents.engines.charts import CHART_KINDS, chart_content, draw_chart
from documents.engines.model import ENGINES, VARIANTS, Doc, Page, inject
from documents.engines.pages import PAGE_KINDS, draw_page, page_content
from documents.engines.questions import make_questions

VERSION = 3
"""Bumped whenever a generator changes what a seed draws: a cached truth of another version is redrawn."""
KINDS = {"matplotlib": CHART_KINDS, "chromium": PAGE_KINDS}
SPLITS = ("dev", "report")
ASKABLE = {
    "matplotlib": {"chart_title", "subtitle", "axis_title", "tick_label", "legend_entry", "value_label", "callout",
                   "pie_label", "line_end_label", "source_note"},
    "chromium": {"title", "subtitle", "section_heading", "list_item", "card_label", "card_value", "paragraph",
                 "table_header", "table_cell", "nav_item", "button", "badge", "footer", "source_note", "item_name",
                 "item_price"},
}  # fmt: skip
"""Roles a defect may hit, per engine."""
ENGINE_OFFSET = {"matplotlib": 0, "chromium": 500_000}


def split_seeds(split: str, n: int) -> list[int]:
    """Seeds of ``split``: dev = 0..n-1, report = 1000..1000+n-1. Raises ValueError for another split."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    start = 0 if split == "dev" else 1000
    return list(range(start, start + n))


def doc_id(engine: str, seed: int) -> str:
    """The id of ``engine``'s document ``seed``: "<engine>-<kind>-<seed>"."""
    kinds = KINDS[engine]
    return f"{engine}-{kinds[seed % len(kinds)]}-{seed}"


def make_doc(engine: str, seed: int, split: str, folder: Path, browser: Browser | None = None) -> Doc:
    """Draw document ``seed`` of ``engine`` into ``folder`` (see module docstring); ``browser``: an
    open :class:`Browser` for chromium (None: one is started for this document).

    Raises:
        ValueError: an unknown engine; BrowserError: chromium missing or failing.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    kinds = KINDS[engine]
    kind = kinds[seed % len(kinds)]
    rng = random.Random(seed + ENGINE_OFFSET[engine])
    if engine == "matplotlib":
        specs, style = chart_content(kind, rng)
    else:
        specs, style = page_content(kind, rng)
    err_rng = random.Random(seed * 7919 + 17 + ENGINE_OFFSET[engine])
    bad_specs, defects = inject(specs, err_rng.choice((2, 3)), err_rng, ASKABLE[engine])
    folder.mkdir(parents=True, exist_ok=True)
    did = doc_id(engine, seed)
    pages = {}
    own = browser is None and engine == "chromium"
    if own:
        browser = Browser()
    try:
        for variant, content in zip(VARIANTS, (specs, bad_specs)):
            if engine == "matplotlib":
                image, elements = draw_chart(kind, content, style)
            else:
                image, elements = draw_page(kind, content, style, browser)
            path = folder / f"{did}_{variant}.png"
            image.save(path)
            pages[variant] = Page(path, elements)
    finally:
        if own:
            browser.close()
    drawn = {e.id for e in pages["defect"].elements}
    defects = [d for d in defects if (d.shown == "") == (d.element not in drawn)]  # a defect drawn off the page is none
    questions = make_questions(kind, pages["clean"].elements, pages["defect"].elements, defects, err_rng)
    size = _image_size(pages["clean"].image_path)
    doc = Doc(did, engine, kind, seed, split, size, pages, defects, questions)
    truth = doc.truth() | {"version": VERSION}
    (folder / f"{did}_truth.json").write_text(json.dumps(truth, indent=1, ensure_ascii=False))
    return doc


def _image_size(path: Path) -> tuple[int, int]:
    """The (width, height) of the image at ``path``."""
    from PIL import Image

    with Image.open(path) as im:
        return im.size


def load_doc(path: Path) -> Doc | None:
    """The document whose truth file is ``path``, or None when it is absent, of another ``VERSION``,
    or its images are missing."""
    if not path.is_file():
        return None
    data = json.loads(path.read_text())
    if data.get("version") != VERSION:
        return None
    doc = Doc.from_truth(data, path.parent)
    return doc if all(p.image_path.is_file() for p in doc.pages.values()) else None


def build_split(split: str, engine: str, folder: Path, n: int = 12) -> list[Doc]:
    """The ``n`` documents of ``engine`` in ``split``, drawn into ``folder`` (or loaded from it when
    already drawn at this ``VERSION``).

    Raises:
        ValueError: an unknown split or engine; BrowserError: chromium missing or failing.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    folder = Path(folder)
    docs: list[Doc | None] = [load_doc(folder / f"{doc_id(engine, s)}_truth.json") for s in split_seeds(split, n)]
    todo = [i for i, d in enumerate(docs) if d is None]
    if todo:
        browser = Browser() if engine == "chromium" else None
        try:
            for i in todo:
                docs[i] = make_doc(engine, split_seeds(split, n)[i], split, folder, browser)
        finally:
            if browser is not None:
                browser.close()
    return [d for d in docs if d is not None]


def doc_rows(doc: Doc) -> list[dict[str, Any]]:
    """The document's two rubric rows (the project's own format, ``rewards.importers``): id
    "<doc id>-<variant>", the page's image (relative to the folder), one criterion "text" with
    every question as a check (tag = question form), and ``meta``: split, seed, engine, kind,
    variant, ``answers`` (check id -> the truth on this page, "yes"/"no") and ``truth_kinds``."""
    rows = []
    for variant, page in doc.pages.items():
        checks = [{"id": q.id, "question": q.question, "tag": q.kind} for q in doc.questions]
        rows.append(
            {
                "id": f"{doc.id}-{variant}",
                "prompt": f"a {doc.kind} drawn by {doc.engine}",
                "image": page.image_path.name,
                "criteria": [{"name": "text", "checks": checks}],
                "meta": {
                    "split": doc.split, "seed": doc.seed, "engine": doc.engine, "kind": doc.kind, "variant": variant,
                    "answers": {q.id: q.answers[variant] for q in doc.questions},
                    "truth_kinds": {q.id: q.truth_kind for q in doc.questions},
                },
            }
        )  # fmt: skip
    return rows


def write_rows(docs: list[Doc], folder: Path) -> Path:
    """Write ``rows.jsonl`` (:func:`doc_rows` of every document) and ``truth.json`` (the list of
    ``Doc.truth``) into ``folder``, where the documents' images are. Returns the rows' path.

    Raises:
        ValueError: a document's images are not in ``folder`` (the rows name them relative to it).
    """
    folder = Path(folder)
    for d in docs:
        for p in d.pages.values():
            if p.image_path.parent.resolve() != folder.resolve():
                raise ValueError(f"{p.image_path}: document {d.id}'s image is not in {folder}")
    path = folder / "rows.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for d in docs for r in doc_rows(d)))
    (folder / "truth.json").write_text(json.dumps([d.truth() for d in docs], indent=1, ensure_ascii=False))
    return path


def write_split(split: str, folder: Path, n: int = 12, engines: tuple[str, ...] = ENGINES) -> Path:
    """Draw (or load) ``split`` for every engine into ``folder`` and write its rows; the rows' path."""
    docs = [d for e in engines for d in build_split(split, e, folder, n)]
    return write_rows(docs, folder)
