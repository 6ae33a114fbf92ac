"""Documents drawn by real layout engines, with truth from the engines (issue 31).

Charts by matplotlib (:mod:`.charts`: bar, grouped bar, line, pie, donut) and HTML pages by
headless Chromium (:mod:`.pages`: slide, dashboard, landing, poster, table, menu), each drawn clean
and with injected defects (:data:`.model.DEFECT_KINDS`), the truth of every text element (string,
role, context, box in image pixels) taken from the engine (``Text.get_window_extent``,
``Range.getBoundingClientRect``), and rubric questions with their truth on each page
(:mod:`.questions`).

Use::

    from documents.engines import build_split, write_rows
    docs = build_split("dev", "chromium", Path("runs/engine_docs/dev"))   # list[Doc], cached
    for doc in docs:
        for variant, page in doc.pages.items():          # "clean", "defect"
            page.image_path, page.elements                # PNG, list[Element] (id, role, text, box, ...)
        for q in doc.questions:                           # Question(kind, truth_kind, question, answers)
            q.question, q.answers["defect"]
    write_rows(docs, Path("runs/engine_docs/dev"))        # rows.jsonl + truth.json for rubricloop-judge

Score a judge (:mod:`.score`; an oracle VLM that answers from the truth: :mod:`.oracle`)::

    from documents.engines.score import judge_split, make_judge, tally
    counts = tally(judge_split(make_judge("ocr"), Path("runs/engine_docs/dev"), "ocr"))
    counts["false_yes"], counts["false_no"], counts["true_withheld"]

``python -m documents.engines --split dev --out DIR`` draws a split for both engines
and writes its rows; ``benchmarks/engine_judge.py`` prints the judges' figures on both splits.
"""

from documents.engines.model import DEFECT_KINDS, ENGINES, ROLES, VARIANTS, Defect, Doc, Element, Page, Question
from documents.engines.split import (
    KINDS,
    SPLITS,
    build_split,
    doc_rows,
    make_doc,
    split_seeds,
    write_rows,
    write_split,
)

__all__ = [
    "DEFECT_KINDS", "ENGINES", "KINDS", "ROLES", "SPLITS", "VARIANTS", "Defect", "Doc", "Element", "Page", "Question",
    "build_split", "doc_rows", "make_doc", "split_seeds", "write_rows", "write_split",
]  # fmt: skip
