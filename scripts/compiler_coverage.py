"""Share of rubric checks the offline judge decides, per dimension, before and after the compiler.

Before: the former importer's keyword rules (``rewards.text.questions.keyword_rules``, applied to text-dimension
rows only, as the importer did); a check with expectations was decided both ways. After: the
question compiler (``rewards.text.questions.question_compiler``): *decided* = a text part, and
nothing only a VLM can decide: no VLM part, or only parts a locator rule of the page structure
resolves (``rewards.text.page.locators.page_resolvable``: "in panel (a)", "x-axis tick label";
code answers "yes" when the page shows them, "no" when the text part fails, and withholds when a
part fails); *no-only* = a text part plus VLM-only parts (code can only answer "no"). A second
table counts the quoted-text questions (dimension "text", at least one quote): the share with a
text part, the share decided both ways (and of it, the share decided through page rules), and how
many of their locator phrases the specs represent (``TextSpec.locators``) or hand on
(``locator '...'`` parts). A last list gives the dev half's most common unresolved locator phrases
(``--unresolved N``, normalised by ``normalised_phrase``; a phrase a page rule may resolve is not
listed): what to resolve next, read from the dev half only. ``--blockers`` counts the dev half's
undecided quoted-text questions by the first thing that blocks them (``blocker``: no text part, a
claim no rule reads, a picture or drawn mark, a one-word fragment, descriptions only).

Rows are shown in two halves. By default the halves are the even and odd rows of the file. With
``--split id-hash`` a row's half is ``sha1(str(id)) % 2`` (0 = dev, 1 = report), which does not
depend on the file's order; ``--exclude`` drops the rows whose id is in another file. The README's
held-out figures are the report half of the official BizGenEval file without the shared subset:

    python scripts/compiler_coverage.py ../shared/benchmarks/bizgeneval/bizgeneval_subset.jsonl
    python scripts/compiler_coverage.py bizgeneval.jsonl \
        --exclude ../shared/benchmarks/bizgeneval/bizgeneval_subset.jsonl --split id-hash
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rewards.text.page.locators import page_resolvable, rule_reads  # noqa: E402
from rewards.text.questions.keyword_rules import layout_strings  # noqa: E402
from rewards.text.questions.question_compiler import QuestionSpec, compile_question  # noqa: E402
from rewards.text.questions.question_quotes import find_quotes  # noqa: E402


def decided(spec: QuestionSpec) -> bool:
    """True when code answers a question both ways: a text part and no VLM part, or only parts a
    page locator rule resolves (module docstring)."""
    return spec.text is not None and (spec.decidable or page_resolvable(spec.vlm_parts, len(spec.text.texts)))


def has_rule(part: str, n_texts: int = 1) -> bool:
    """True when ``part`` is one a page locator rule reads (``rewards.text.page.locators.rule_reads``)."""
    return rule_reads(part, n_texts)


def quoted_text_figures(counts: dict[str, dict[str, int]]) -> list[str]:
    """The table of quoted-text questions (dimension "text", at least one quote) per half: the
    share with a text part the offline judge checks, the share it decides both ways, and the
    locator phrases the specs represent (``TextSpec.locators``) or hand to a VLM (``locator '...'``)."""
    head = f"{'half':<7} {'quoted':>6} {'text part':>9} {'decided':>8} {'by rules':>8} {'locators':>8}"
    lines = [head + f" {'represented':>11} {'page rule':>9} {'to VLM':>7}"]
    for h, c in sorted(counts.items()):
        n, loc = c["n"], c["represented"] + c["handed"]
        lines.append(
            f"{h:<7} {n:>6} {c['text'] / max(n, 1):>9.1%} {c['decided'] / max(n, 1):>8.1%} "
            f"{c['by_rules'] / max(n, 1):>8.1%} {loc:>8} {c['represented'] / max(loc, 1):>11.1%} "
            f"{c['ruled'] / max(loc, 1):>9.1%} {(c['handed'] - c['ruled']) / max(loc, 1):>7.1%}"
        )
    return lines


def normalised_phrase(part: str) -> str:
    """A ``locator '...'`` VLM part as the printout counts it: lower case, each quoted string as
    ``Q``, leading determiners and "In that"/"In the" dropped ("In the 'Revenue' tile" -> "in Q tile")."""
    phrase = part[len("locator ") :].strip()[1:-1].lower()
    phrase = re.sub(r"'[^']*'|\"[^\"]*\"|“[^”]*”|‘[^’]*’", "Q", phrase)
    phrase = re.sub(r"(?<!\()\b(?:the|a|an|that|this|its|their)\b(?!\)) ?", "", phrase)
    return re.sub(r"\s+", " ", phrase).strip()


def unresolved_figures(phrases: Counter, top: int) -> list[str]:
    """The ``top`` most common unresolved locator phrases (``normalised_phrase``), with counts."""
    total = sum(phrases.values())
    lines = [f"{total} unresolved locator phrases ({len(phrases)} distinct); the {top} most common:"]
    lines += [f"{n:>5}  {p}" for p, n in phrases.most_common(top)]
    return lines


PICTURE = re.compile(
    r"\b(?:illustrations?|images?|photos?|pictures?|drawings?|cartoons?|graphics?|icons?|logos?|arrows?|symbols?"
    r"|circles?|triangles?|maps?|bottles?|person|people|diagrams?|networks?|thumbnails?|insets?|donuts?|brace"
    r"|equations?|formulas?|charts?|bars?|lines? chart|timeline|milestones?|branch(?:es)?|nodes?)\b"
)
"""Nouns of a locator phrase that name a picture or a drawn mark (a lightbulb illustration, an
arrow, a branch of a tree, an equation): what it shows is no text OCR reads."""

BLOCKERS = ("no text part", "a claim no rule reads", "a picture or drawn mark", "a one-word fragment", "a description")
"""Why an undecided quoted-text question is undecided (``blocker``), in the order they are tested."""


def blocker(spec: QuestionSpec) -> str:
    """The first of ``BLOCKERS`` an undecided question has: no text part; a VLM part that is no
    locator and no rule reads (a count, a quantifier, a style of a fill, an unknown word); a
    locator naming a picture or drawn mark (``PICTURE``); a one-word locator the compiler cut from
    its phrase ("first", "green", "item"); else only descriptive locators no rule reads ("in the
    testimonial section", "directly below the welcome bar")."""
    if spec.text is None:
        return BLOCKERS[0]
    left = [p for p in spec.vlm_parts if not has_rule(p, len(spec.text.texts))]
    if any(not p.startswith("locator ") for p in left):
        return BLOCKERS[1]
    if any(PICTURE.search(p) for p in left):
        return BLOCKERS[2]
    if any(len(normalised_phrase(p).split()) == 1 for p in left):
        return BLOCKERS[3]
    return BLOCKERS[4]


def blocker_figures(specs: list[QuestionSpec]) -> tuple[dict[str, int], list[str]]:
    """The undecided questions ``specs`` counted by ``blocker`` (in ``BLOCKERS`` order), and the
    printout: the counts, then of those with only fragments or descriptions left, how many hold
    two or more unresolved parts, and their phrases (``normalised_phrase``): all, distinct, once."""
    blocked = Counter(blocker(s) for s in specs)
    described = [
        [normalised_phrase(p) for p in s.vlm_parts if not has_rule(p, len(s.text.texts))]
        for s in specs
        if blocker(s) in BLOCKERS[3:]
    ]
    phrases = Counter(p for parts in described for p in parts)
    lines = [f"dev half, {len(specs)} undecided quoted-text questions, by the first blocker they have:"]
    lines += [f"{blocked[b]:>5}  {b}" for b in BLOCKERS]
    lines.append(
        f"of the {len(described)} with only fragments or descriptions left, "
        f"{sum(len(parts) >= 2 for parts in described)} hold two or more; their {sum(phrases.values())} phrases: "
        f"{len(phrases)} distinct, {sum(n == 1 for n in phrases.values())} of them once"
    )
    return {b: blocked[b] for b in BLOCKERS}, lines


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("data", type=Path, help="BizGenEval JSONL (questions + dimension per row)")
    p.add_argument("--json", type=Path, default=None, help="also write the figures here")
    p.add_argument(
        "--split",
        choices=("index", "id-hash"),
        default="index",
        help="halves by row index parity (default) or by sha1 of the row id",
    )
    p.add_argument("--exclude", type=Path, default=None, help="drop rows whose id is in this JSONL")
    p.add_argument(
        "--unresolved",
        type=int,
        default=30,
        metavar="N",
        help="print the N most common locator phrases of the dev half's quoted-text questions left to a VLM",
    )
    p.add_argument(
        "--blockers", action="store_true", help="count the dev half's undecided quoted-text questions by blocker"
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        rows = [json.loads(l) for l in args.data.read_text(encoding="utf-8").splitlines() if l.strip()]
        drop = (
            {json.loads(l)["id"] for l in args.exclude.read_text(encoding="utf-8").splitlines() if l.strip()}
            if args.exclude
            else set()
        )
    except (OSError, json.JSONDecodeError, KeyError) as e:
        print(f"error: {args.exclude if args.exclude else args.data}: {e}", file=sys.stderr)
        return 1
    rows = [r for r in rows if r.get("id") not in drop]
    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    quoted: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    unresolved: Counter = Counter()
    undecided_dev: list[QuestionSpec] = []
    for i, row in enumerate(rows):
        key = int(hashlib.sha1(str(row.get("id")).encode()).hexdigest(), 16) if args.split == "id-hash" else i
        half = "dev" if key % 2 == 0 else "report"
        dim = row.get("dimension", "?")
        for q in row.get("questions", []):
            spec = compile_question(q)
            for key in ((half, dim), (half, "ALL"), ("both", dim), ("both", "ALL")):
                c = counts[key]
                c["n"] += 1
                c["before"] += bool(dim == "text" and layout_strings(q))
                c["decided"] += decided(spec)
                c["no_only"] += spec.text is not None and not decided(spec)
            if dim == "text" and find_quotes(q):
                for h in (half, "both"):
                    c = quoted[h]
                    c["n"] += 1
                    c["text"] += spec.text is not None
                    c["decided"] += decided(spec)
                    c["by_rules"] += decided(spec) and not spec.decidable
                    c["represented"] += len(spec.text.locators) if spec.text is not None else 0
                    c["handed"] += sum(p.startswith("locator ") for p in spec.vlm_parts)
                    n_texts = len(spec.text.texts) if spec.text is not None else 1
                    c["ruled"] += sum(p.startswith("locator ") and has_rule(p, n_texts) for p in spec.vlm_parts)
                if half == "dev" and not decided(spec):
                    undecided_dev.append(spec)
                if half == "dev":
                    unresolved.update(
                        normalised_phrase(p)
                        for p in spec.vlm_parts
                        if p.startswith("locator ") and not has_rule(p, len(spec.text.texts) if spec.text else 1)
                    )
    out = {f"{h}/{d}": {k: v for k, v in c.items()} for (h, d), c in sorted(counts.items())}
    print(f"{'half':<7} {'dimension':<10} {'checks':>6} {'before':>7} {'decided':>8} {'no-only':>8} {'withheld':>8}")
    for (h, d), c in sorted(counts.items()):
        n = c["n"]
        print(
            f"{h:<7} {d:<10} {n:>6} {c['before'] / n:>7.1%} {c['decided'] / n:>8.1%} {c['no_only'] / n:>8.1%} "
            f"{1 - (c['decided'] + c['no_only']) / n:>8.1%}"
        )
    print("\nquoted-text questions (dimension text, at least one quote); locator phrases of their specs:")
    print("\n".join(quoted_text_figures(quoted)))
    out["quoted_text"] = {h: dict(c) for h, c in sorted(quoted.items())}
    if args.unresolved > 0:
        print("\ndev half, quoted-text questions: " + "\n".join(unresolved_figures(unresolved, args.unresolved)))
    out["unresolved_dev"] = dict(unresolved.most_common())
    out["blockers_dev"], lines = blocker_figures(undecided_dev)
    if args.blockers:
        print("\n" + "\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
