"""Rendering an adversarial document from its seed, its rubric (checks and a refine item), and
writing a split as rubric rows with their images."""

from __future__ import annotations

import json
import random
from pathlib import Path

from documents.adversarial.inject import PRIMARY, choose_errors
from documents.adversarial.kinds import DRAW, SIZES
from documents.adversarial.questions import ask_questions
from documents.adversarial.truth import Document, Element, Error, split_seeds
from documents.adversarial.vocab import KINDS, PAPER
from documents.fonts import FAMILIES
from documents.layout import Layout, ink_box, render, union
from documents.pages import write_jsonl
from rewards.importers import expectations_of
from rewards.rubric import Check, Criterion, Item, Rubric
from rewards.text.questions.question_compiler import compile_question


def make_document(seed: int) -> Document:
    """Render document ``seed``: both pages, its elements' truth, its errors and questions
    (deterministic in ``seed``; the kind is ``KINDS[seed % 4]``)."""
    rng = random.Random(seed)
    kind = KINDS[seed % len(KINDS)]
    w, h = SIZES[kind]
    lay = Layout(w, h, rng.choice(PAPER), rng.choice(list(FAMILIES)), rng)
    decoy = rng.random() < 0.35
    DRAW[kind](lay, decoy)
    lay.texts = {k: t for k, t in lay.texts.items() if t.text}  # an empty corner header is no element
    err_rng = random.Random(seed * 7919 + 17)
    # every 16 consecutive seeds give each kind its four primary error kinds (PRIMARY)
    chosen = choose_errors(lay, decoy, PRIMARY[kind][(seed // 4) % 4], err_rng)
    shown = {eid: s for eid, (_, s) in chosen.items()}
    clean, erroneous = render(lay, {}), render(lay, shown)
    elements = []
    for eid, t in lay.texts.items():
        s = shown.get(eid, t.text)
        elements.append(
            Element(
                eid, t.role, union(ink_box(t, t.text), ink_box(t, s)), s, t.text,
                t.slot if not s else None, t.angle, t.meta.get("ordinal"), t.meta.get("axis"),
                t.meta.get("row"), t.meta.get("column"), t.meta.get("container"),
            )
        )  # fmt: skip
    errors = [Error(kind_, eid, shown[eid], lay.texts[eid].text) for eid, (kind_, _) in chosen.items()]
    questions = ask_questions(kind, elements, errors, err_rng)
    return Document(f"{kind}-{seed}", seed, kind, clean, erroneous, elements, errors, questions)


def make_checks(doc: Document, rubric_only: bool = True) -> list[Check]:
    """The document's questions as checks, compiled as the importers compile them (``spec`` and
    ``expects``); ``rubric_only``: only the questions true on the clean page (the rubric a
    refine run fixes the erroneous page towards)."""
    checks = []
    for q in doc.questions:
        if rubric_only and q.answer_clean != "yes":
            continue
        spec = compile_question(q.question)
        checks.append(Check(q.id, q.question, tag=q.qtype, expects=expectations_of(spec), spec=spec))
    return checks


def make_item(doc: Document, image: Path) -> Item:
    """A refine item of the erroneous page saved at ``image``: the rubric of ``make_checks``."""
    return Item(doc.id, f"a {doc.kind}", Rubric((Criterion("text", tuple(make_checks(doc))),)), image=image)


def write_rows(split: str, n: int, folder: Path, page: str = "erroneous") -> Path:
    """Write the split's documents as the project's own rubric rows (``rewards.importers``
    format), for ``rubricloop-judge`` and ``rubricloop-refine``: per document
    ``<id>_clean.png``, ``<id>_erroneous.png`` and ``<id>_truth.json`` (``Document.truth``), and
    ``rows.jsonl`` whose rows name the ``page`` image ("erroneous" or "clean") and carry the
    rubric of ``make_checks`` (the questions true on the clean page; tag = question type).
    Returns the path of ``rows.jsonl``. Raises ValueError for another split or page."""
    if page not in ("erroneous", "clean"):
        raise ValueError(f"page must be 'erroneous' or 'clean', got {page!r}")
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for seed in split_seeds(split, n):
        doc = make_document(seed)
        doc.clean.save(folder / f"{doc.id}_clean.png")
        doc.erroneous.save(folder / f"{doc.id}_erroneous.png")
        (folder / f"{doc.id}_truth.json").write_text(json.dumps(doc.truth(), indent=1))
        checks = [{"id": c.id, "question": c.question, "tag": c.tag} for c in make_checks(doc)]
        rows.append(
            {
                "id": doc.id,
                "prompt": f"a {doc.kind}",
                "image": f"{doc.id}_{page}.png",
                "criteria": [{"name": "text", "checks": checks}],
                "meta": {"split": split, "seed": seed, "kind": doc.kind},
            }
        )
    return write_jsonl(folder / "rows.jsonl", rows)
