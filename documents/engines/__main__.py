"""``python -m documents.engines --split dev --out DIR``: draw a split (both engines unless
``--engine``) into DIR and write its ``rows.jsonl`` and ``truth.json`` (``split.write_split``)."""

import argparse
from pathlib import Path

from documents.engines.model import ENGINES
from documents.engines.split import SPLITS, write_split

ap = argparse.ArgumentParser(description="Draw the engine-drawn set's split and write rows.jsonl (write_split).")
ap.add_argument("--split", choices=SPLITS, default="dev")
ap.add_argument("--n", type=int, default=12, help="documents per engine")
ap.add_argument("--engine", choices=ENGINES, action="append", help="repeatable; default both")
ap.add_argument("--out", type=Path, required=True)
args = ap.parse_args()
print(write_split(args.split, args.out, args.n, tuple(args.engine or ENGINES)))
