"""Rebuild the bundled example's start images: real BizGenEval text items, with injected text errors.

Run ``python -m refine.example.render`` from the repository root to rebuild
``refine/example/images/*.png``, ``manifest.json`` and ``bizgeneval_text.jsonl`` from the shared
BizGenEval subset (``--source``; by default
``../shared/benchmarks/bizgeneval/bizgeneval_subset.jsonl`` from the repository root, the shared
folder beside the checkout), or into another folder (``--out``). The renderer itself is
:mod:`documents.example` (how the strings are laid out and which get errors); rendering is
deterministic for a given seed, Pillow version and DejaVu font files. The outputs are committed,
so the refine example never needs this script.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
from pathlib import Path

from documents.example import ITEM_IDS, render_item
from documents.pages import write_jsonl
from rewards.common.one_line import one_line
from rewards.importers import load_items

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SOURCE = REPO.parent / "shared" / "benchmarks" / "bizgeneval" / "bizgeneval_subset.jsonl"
"""The default ``--source``: the shared BizGenEval subset, in the ``shared`` folder beside the checkout."""


def recorded_source(source: Path) -> str:
    """``source`` as the manifest records it: relative to the repository root when it lies in the
    folder that holds the checkout ("../shared/benchmarks/..."), so that the manifest names no
    machine's absolute path; else as given."""
    path = source.resolve()
    return os.path.relpath(path, REPO) if path.is_relative_to(REPO.parent) else str(source)


def main(argv: list[str] | None = None) -> None:
    """Render the items of ``--ids`` (default ``ITEM_IDS``); writes images/, manifest.json, bizgeneval_text.jsonl."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--source",
        type=Path,
        default=SOURCE,
        help="BizGenEval JSONL to take the items from (default: ../shared/benchmarks/bizgeneval/bizgeneval_subset.jsonl"
        " from the repository root)",
    )
    ap.add_argument("--out", type=Path, default=HERE, help="folder to write into")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--ids", default=",".join(ITEM_IDS), help="comma-separated item ids to render (default: the bundled example's)"
    )
    args = ap.parse_args(argv)
    ids = [i.strip() for i in args.ids.split(",") if i.strip()]
    if not ids:
        ap.error("--ids: no item id given")
    if not args.source.is_file():
        print(
            one_line(f"error: --source {args.source}: no such file (pass the path of bizgeneval_subset.jsonl)"),
            file=sys.stderr,
        )
        raise SystemExit(2)
    items, errors = load_items(args.source)
    if errors:
        raise SystemExit(errors[0])
    by_id = {it.id: it for it in items}
    rows = {
        str(json.loads(line)["id"]): json.loads(line) for line in args.source.read_text().splitlines() if line.strip()
    }
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    manifest, out_rows = {"seed": args.seed, "source": recorded_source(args.source), "items": []}, []
    for k, item_id in enumerate(ids):
        if item_id not in by_id:
            raise SystemExit(f"{args.source}: item {item_id} not found")
        img, entry = render_item(by_id[item_id], random.Random(args.seed * 1000 + k))
        img.save(args.out / entry["image"], optimize=True)
        manifest["items"].append(entry)
        out_rows.append({**rows[item_id], "image": entry["image"]})
        n_bad = sum(s["corrupted"] for s in entry["strings"])
        print(f"item {item_id}: {len(entry['strings'])} strings, {n_bad} corrupted, body {entry['body_px']} px")
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    write_jsonl(args.out / "bizgeneval_text.jsonl", out_rows)
    licence = args.source.parent / "LICENSE"
    if licence.exists():
        shutil.copyfile(licence, args.out / "LICENSE.bizgeneval")


if __name__ == "__main__":
    main()
