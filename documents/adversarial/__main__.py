"""``python -m documents.adversarial --split dev --out DIR``: write a split's rows and images (``write_rows``)."""

import argparse
from pathlib import Path

from documents.adversarial.document import write_rows
from documents.adversarial.vocab import SPLITS


def main(argv: list[str] | None = None) -> None:
    """Parse ``argv`` and write the split; prints the path of ``rows.jsonl``."""
    ap = argparse.ArgumentParser(description="Write the adversarial set's rows and images (write_rows).")
    ap.add_argument("--split", choices=SPLITS, default="dev")
    ap.add_argument("--n", type=int, default=16)
    ap.add_argument("--page", choices=("erroneous", "clean"), default="erroneous")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    print(write_rows(args.split, args.n, args.out, args.page))


if __name__ == "__main__":
    main()
