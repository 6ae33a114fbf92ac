"""Report: the text editor restoring a page's painted-out footer or source note (issue 32).

Usage::

    python benchmarks/foot_restore.py --cache runs/engine_docs --split dev --n 24
    python benchmarks/foot_restore.py --split dev --n 24 --engine chromium --out runs/foot_restore

For each clean page of ``documents.engines`` (``--split``, ``--n`` per engine, drawn into
``--cache/<split>`` as ``benchmarks/engine_refine.py`` draws them) with a footer or source note,
the element's engine box grown by 3 px is painted with the colour 2 px under its bottom and 5 px
left of it, and ``refine.editors.text.TextEditor`` is handed that page with the footer's (or
source note's) question failed. Per page it prints the action, the box written, the engine's box,
the size and alignment set, and the pixels changed outside the engine's box (and outside the
clean page's own ink a pixel around it); then the total and the pages skipped. ``--out`` keeps
per page the strip from 60 px above the footer down, clean page beside the editor's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from documents.engines import ENGINES, build_split  # noqa: E402
from documents.engines.damage import changed_outside  # noqa: E402
from refine.editors.text import TextEditor  # noqa: E402
from rewards.importers import expectations_of  # noqa: E402
from rewards.rubric import Check, Verdict  # noqa: E402
from rewards.text.questions.question_compiler import compile_question  # noqa: E402

ROLES = ("footer", "source_note")


def failed(question: str) -> list[tuple[Check, Verdict]]:
    """The question compiled as check "q1", handed to the editor as failed (an OCR "no")."""
    spec = compile_question(question)
    return [(Check("q1", question, expects=expectations_of(spec), spec=spec), Verdict("q1", "no", "ocr", ""))]


def restore(clean: np.ndarray, element) -> tuple[dict, int, np.ndarray]:
    """Paint ``element`` (a footer or source note) out of ``clean`` (int (h, w, 3)) and ask the
    editor for it: (its action, pixels changed outside the element's box, the page written)."""
    x0, y0, x1, y1 = element.box
    start = clean.copy()
    start[y0 - 3 : y1 + 3, x0 - 3 : x1 + 3] = clean[min(y1 + 2, clean.shape[0] - 1), max(x0 - 5, 0)]
    noun = "footer" if element.role == "footer" else "source note at the bottom"
    editor = TextEditor()
    question = f'Does the {noun} read exactly "{element.text}"?'
    out = np.asarray(editor.edit(Image.fromarray(start.astype(np.uint8)), "", failed(question), 0)).astype(int)
    outside = changed_outside(out, start, clean, element.box)
    return editor.last_actions[0], int(outside.sum()), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", default="dev")
    ap.add_argument("--n", type=int, default=12, help="documents per engine (default 12)")
    ap.add_argument("--engine", choices=ENGINES, action="append", help="repeatable; default both")
    ap.add_argument("--cache", type=Path, default=ROOT / "runs" / "engine_docs")
    ap.add_argument("--out", type=Path, default=None, help="strips clean | edited per page")
    args = ap.parse_args()
    total, skipped, pages = 0, [], 0
    for engine in args.engine or ENGINES:
        for doc in build_split(args.split, engine, args.cache / args.split, args.n):
            element = next((e for e in doc.pages["clean"].elements if e.role in ROLES), None)
            if element is None:
                continue
            clean = np.asarray(Image.open(doc.pages["clean"].image_path).convert("RGB")).astype(int)
            action, outside, out = restore(clean, element)
            pages += 1
            total += outside
            if "box" not in action:
                skipped.append(doc.id)
            kind = action.get("type", {})
            print(f"{doc.id:28s} {action['action'][:44]:44s} {action.get('box')} engine {list(element.box)}"
                  f" size {kind.get('size', 0):.2f} {kind.get('align', '')} outside {outside}", flush=True)  # fmt: skip
            if args.out is not None:
                args.out.mkdir(parents=True, exist_ok=True)
                top = max(0, element.box[1] - 60)
                strip = np.concatenate([clean[top:], out[top:]], 1).astype(np.uint8)
                Image.fromarray(strip).save(args.out / f"{doc.id}.png")
    print(f"{pages} pages, {total} px outside the engine's boxes, skipped {len(skipped)}: {skipped}")


if __name__ == "__main__":
    main()
