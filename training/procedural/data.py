"""Procedurally generated training data: slide, chart and poster prompts with their rubrics.

Every check carries text expectations (``Check.expects``), so code (OCR) can decide it:
titles, bullet text, axis labels, tick labels, bar and point values, legend entries, poster
dates and calls to action. The vocabulary comes from small in-code word lists; one
``random.Random(seed)`` drives all choices, so the same seed gives the same data.

The first double-quoted string of every prompt is its title (or poster headline), which is
the target of the Flow-GRPO OCR reward (``rewards.reward_fns.OCRTextReward``).

Items are written to and read from the project's rubric JSONL format
(``rewards.importers.parse_rubricloop``)::

    {"id", "prompt", "criteria": [{"name", "checks": [{"id", "question", "tag",
     "expects": [{"text", "region"}]}]}], "meta"}
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any, Callable, Sequence

from rewards.importers import load_items
from rewards.rubric import Check, Criterion, Item, Rubric, RubricError, TextExpectation
from training.procedural.item_split import generate_split

KINDS = ("slide", "chart", "poster")

COMPANIES = (
    "Acme Corp",
    "Northwind",
    "Globex",
    "Initech",
    "Umbrella Labs",
    "Stark Freight",
    "Hooli",
    "Vandelay Imports",
    "Soylent Foods",
    "Tyrell Energy",
    "Wonka Brands",
    "Aperture Systems",
    "Blue Harbor",
    "Red Mesa",
    "Silver Pine",
    "Kestrel Bank",
    "Orion Health",
    "Lumen Telecom",
)
METRICS = {  # metric -> (unit shown on the y-axis, value range)
    "Revenue": ("USD millions", (10, 95)),
    "Net Profit": ("USD millions", (10, 60)),
    "Operating Costs": ("USD millions", (15, 90)),
    "Active Users": ("thousands", (20, 99)),
    "Customer Churn": ("%", (10, 40)),
    "Market Share": ("%", (10, 60)),
    "Sales Volume": ("units, thousands", (12, 98)),
    "Cash Flow": ("USD millions", (10, 80)),
    "Headcount": ("employees", (40, 99)),
    "Ad Spend": ("USD thousands", (10, 95)),
    "Order Backlog": ("orders", (20, 99)),
    "Gross Margin": ("%", (20, 70)),
}
QUARTERS = ("Q1", "Q2", "Q3", "Q4")
YEARS = tuple(str(y) for y in range(2019, 2027))
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
MARKETS = ("North", "South", "East", "West", "Europe", "Asia", "Africa", "Canada", "Brazil", "Japan")
PRODUCTS = ("Cloud", "Mobile", "Retail", "Payments", "Hardware", "Services", "Licensing", "Ads")
STYLES = ("clean", "minimal", "modern", "corporate", "flat", "bold")
BACKGROUNDS = ("white", "light grey", "navy", "cream", "pale blue", "charcoal")
BULLETS = (
    "{metric} up {n}%",
    "{metric} down {n}%",
    "Expand to {market}",
    "Hire {n} engineers",
    "Cut costs by {n}%",
    "Launch {product} in {market}",
    "Target {n}% margin",
    "Close {n} deals",
    "Open {n} new stores",
    "Grow {product} by {n}%",
)
EVENTS = (
    "Summer Sale",
    "Product Launch",
    "Annual Gala",
    "Tech Summit",
    "Career Fair",
    "Grand Opening",
    "Charity Run",
    "Design Week",
    "Investor Day",
    "Winter Clearance",
)
VENUES = ("City Hall", "Pier 39", "Grand Arena", "Central Library", "Harbor Center", "Expo Hall B", "Union Square")
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _check(check_id: str, question: str, tag: str, *expects: tuple[str, str | None]) -> Check:
    return Check(check_id, question, tag=tag, expects=tuple(TextExpectation(t, r) for t, r in expects))


def _quoted(texts: Sequence[str]) -> str:
    """'"a"', '"a" and "b"', '"a", "b" and "c"'."""
    q = [f'"{t}"' for t in texts]
    return q[0] if len(q) == 1 else ", ".join(q[:-1]) + " and " + q[-1]


def _bullet(rng: random.Random) -> str:
    return rng.choice(BULLETS).format(
        metric=rng.choice(list(METRICS)),
        n=rng.randint(2, 60),
        market=rng.choice(MARKETS),
        product=rng.choice(PRODUCTS),
    )


def make_slide(rng: random.Random, item_id: str) -> Item:
    """A title slide with 2-4 bullets and a footer; checks: title (top), each bullet, footer (bottom)."""
    metric = rng.choice(list(METRICS))
    title = rng.choice(
        (
            f"{rng.choice(QUARTERS)} {metric} Review",
            f"{rng.choice(YEARS)} {metric} Outlook",
            f"{rng.choice(MARKETS)} {metric} Summary",
            f"{rng.choice(PRODUCTS)} Strategy {rng.choice(YEARS)}",
        )
    )
    bullets: list[str] = []
    n_bullets = rng.randint(2, 4)
    while len(bullets) < n_bullets:
        b = _bullet(rng)
        if b not in bullets:
            bullets.append(b)
    footer = rng.choice(COMPANIES)
    prompt = (
        f"A {rng.choice(STYLES)} business presentation slide on a {rng.choice(BACKGROUNDS)} background, "
        f'titled "{title}" at the top, with {NUMBER_WORDS[n_bullets]} bullet points reading {_quoted(bullets)}, '
        f'and the footer "{footer}" at the bottom.'
    )
    rubric = Rubric(
        (
            Criterion(
                "Title",
                (_check("title", f"Does the title at the top read exactly '{title}'?", "title", (title, "top")),),
            ),
            Criterion(
                "Bullets",
                tuple(
                    _check(f"bullet-{i}", f"Is there a bullet point reading exactly '{b}'?", "body_text", (b, None))
                    for i, b in enumerate(bullets, start=1)
                ),
            ),
            Criterion(
                "Footer",
                (
                    _check(
                        "footer",
                        f"Does the footer at the bottom read exactly '{footer}'?",
                        "body_text",
                        (footer, "bottom"),
                    ),
                ),
            ),
        )
    )
    spec = {"title": title, "bullets": bullets, "footer": footer}
    return Item(item_id, prompt, rubric, meta={"kind": "slide", "spec": spec})


def make_chart(rng: random.Random, item_id: str) -> Item:
    """A bar or line chart with labelled values, axis labels and a legend on the right.

    Checks: title (top), x-axis label (bottom), y-axis label (left), every tick label (bottom),
    every bar/point value label, every legend entry (right). Values are distinct within a chart
    so that each value check is decided by its own number.
    """
    metric = rng.choice(list(METRICS))
    unit, (lo, hi) = METRICS[metric]
    chart = rng.choice(("bar", "line"))
    if chart == "bar" and rng.random() < 0.5:
        x_label, ticks = "Quarter", list(QUARTERS[: rng.randint(3, 4)])
    elif chart == "bar":
        x_label, ticks = "Region", rng.sample(MARKETS, rng.randint(3, 4))
    else:
        start = rng.randint(0, len(MONTHS) - 4)
        x_label, ticks = "Month", list(MONTHS[start : start + rng.randint(3, 4)])
    year = rng.choice(YEARS[1:])
    n_series = rng.randint(1, 2)
    series = [year] if n_series == 1 else [str(int(year) - 1), year]
    values = rng.sample(range(lo, hi + 1), len(ticks) * n_series)
    values = [values[s * len(ticks) : (s + 1) * len(ticks)] for s in range(n_series)]  # [series][tick]
    title = rng.choice((f"{metric} by {x_label} {year}", f"{rng.choice(COMPANIES)} {metric}", f"{metric} Trend {year}"))
    y_label = f"{metric} ({unit})"
    mark = "bar" if chart == "bar" else "point"
    data = "; ".join(f"{s}: " + ", ".join(f"{t} = {v}" for t, v in zip(ticks, vals)) for s, vals in zip(series, values))
    grouped = "grouped bar chart" if chart == "bar" and n_series == 2 else f"{chart} chart"
    prompt = (
        f'A {rng.choice(STYLES)} {grouped} titled "{title}" at the top, x-axis labeled "{x_label}", '
        f'y-axis labeled "{y_label}", with every {mark} labeled with its value ({data}) and a legend '
        f"on the right listing {_quoted(series)}."
    )
    value_checks = []
    for s, vals in zip(series, values):
        for t, v in zip(ticks, vals):
            question = (
                f"Is the {mark} for '{t}'"
                + (f" in series '{s}'" if n_series > 1 else "")
                + f" labelled with the value '{v}'?"
            )
            value_checks.append(_check(f"value-{s}-{t}", question, "data_value", (str(v), None)))
    rubric = Rubric(
        (
            Criterion(
                "Title",
                (_check("title", f"Does the chart title at the top read exactly '{title}'?", "title", (title, "top")),),
            ),
            Criterion(
                "Axes",
                (
                    _check("x-label", f"Is the x-axis labelled '{x_label}'?", "axis", (x_label, "bottom")),
                    _check("y-label", f"Is the y-axis labelled '{y_label}'?", "axis", (y_label, "left")),
                    *(
                        _check(f"tick-{t}", f"Is there an x-axis tick label '{t}'?", "axis", (t, "bottom"))
                        for t in ticks
                    ),
                ),
            ),
            Criterion("Data values", tuple(value_checks)),
            Criterion(
                "Legend",
                tuple(
                    _check(
                        f"legend-{s}", f"Does the legend on the right include the entry '{s}'?", "legend", (s, "right")
                    )
                    for s in series
                ),
            ),
        )
    )
    spec = {
        "chart": chart,
        "title": title,
        "x_label": x_label,
        "y_label": y_label,
        "ticks": ticks,
        "series": series,
        "values": values,
    }
    return Item(item_id, prompt, rubric, meta={"kind": "chart", "spec": spec})


def make_poster(rng: random.Random, item_id: str) -> Item:
    """An event poster; checks: headline (top), date, venue, offer, call to action (bottom)."""
    company = rng.choice(COMPANIES)
    year = rng.choice(YEARS)
    headline = f"{rng.choice(EVENTS)} {year}"
    date = f"{rng.choice(MONTH_NAMES)} {rng.randint(1, 28)}, {year}"
    venue = rng.choice(VENUES)
    offer = rng.choice(
        (
            f"Up to {rng.randint(2, 9)}0% off",
            f"Free entry for {rng.randint(2, 9)}00 guests",
            f"{rng.randint(2, 60)} speakers",
        )
    )
    cta = f"Register at {re.sub(r'[^a-z]', '', company.lower())}.com"
    prompt = (
        f"A {rng.choice(STYLES)} event poster on a {rng.choice(BACKGROUNDS)} background with the headline "
        f'"{headline}" at the top, the date "{date}", the venue "{venue}", the line "{offer}", '
        f'and "{cta}" at the bottom.'
    )
    rubric = Rubric(
        (
            Criterion(
                "Headline",
                (
                    _check(
                        "headline",
                        f"Does the headline at the top read exactly '{headline}'?",
                        "title",
                        (headline, "top"),
                    ),
                ),
            ),
            Criterion(
                "Details",
                (
                    _check("date", f"Does the poster show the date '{date}'?", "body_text", (date, None)),
                    _check("venue", f"Does the poster name the venue '{venue}'?", "body_text", (venue, None)),
                    _check("offer", f"Does the poster include the line '{offer}'?", "body_text", (offer, None)),
                ),
            ),
            Criterion(
                "Call to action",
                (_check("cta", f"Does the bottom of the poster read '{cta}'?", "body_text", (cta, "bottom")),),
            ),
        )
    )
    spec = {"headline": headline, "date": date, "venue": venue, "offer": offer, "cta": cta}
    return Item(item_id, prompt, rubric, meta={"kind": "poster", "spec": spec})


MAKERS: dict[str, Callable[[random.Random, str], Item]] = {
    "slide": make_slide,
    "chart": make_chart,
    "poster": make_poster,
}


TASKS = ("documents", "layout")
"""``data.task`` values of ``rubricloop-train``: "documents" (this module's slides, charts and
posters, checks decided by OCR), "layout" (``training.procedural.layout_data``: slides and bar charts whose
checks ``rewards.judges.layout.LayoutJudge`` decides from pixels)."""


def make_dataset(
    n: int, seed: int, kinds: Sequence[str] = KINDS, val_fraction: float = 0.1, task: str = "documents"
) -> tuple[list[Item], list[Item]]:
    """Generate ``n`` items with distinct prompts and split them into train and validation.

    Kinds alternate in the order given (item i has kind ``kinds[i % len(kinds)]``). The split
    is a seeded shuffle: ``round(n * val_fraction)`` items go to validation. Ids are
    ``"<kind>-<index>"`` (e.g. ``"chart-00004"``), unique over both splits; ``meta`` holds
    ``kind``, ``split``, ``seed`` and ``spec`` (the generated fields, for programmatic renderers).

    Args:
        n: total number of items (train + validation), >= 1.
        seed: the same seed (and arguments) gives identical data.
        kinds: a non-empty subset of ``KINDS`` ("documents"); for "layout", ``KINDS`` (the
            default) means all of ``training.procedural.layout_data.LAYOUT_KINDS``, else a subset of those.
        val_fraction: in [0, 1).
        task: one of ``TASKS``; "layout" returns ``training.procedural.layout_data.make_layout_dataset``.

    Returns:
        (train, val): lists of ``Item`` with source "rubricloop", no shared id or prompt.

    Raises:
        ValueError: bad arguments, or the vocabulary cannot give ``n`` distinct prompts.
    """
    if task not in TASKS:
        raise ValueError(f"data.task must be one of {list(TASKS)}, got {task!r}")
    if task == "layout":
        from training.procedural.layout_data import LAYOUT_KINDS, make_layout_dataset

        return make_layout_dataset(n, seed, val_fraction, LAYOUT_KINDS if tuple(kinds) == KINDS else tuple(kinds))
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"make_dataset: n must be an integer >= 1, got {n!r}")
    if not kinds or any(k not in KINDS for k in kinds):
        raise ValueError(f"make_dataset: kinds must be a non-empty subset of {KINDS}, got {tuple(kinds)!r}")
    if not 0.0 <= val_fraction < 1.0:
        raise ValueError(f"make_dataset: val_fraction must be in [0, 1), got {val_fraction!r}")
    return generate_split(n, seed, kinds, MAKERS, val_fraction, tries=100, caller="make_dataset")


def item_to_row(item: Item) -> dict[str, Any]:
    """One item as a rubric JSONL row (the inverse of ``rewards.importers.parse_rubricloop``)."""
    criteria = []
    for crit in item.rubric.criteria:
        checks = []
        for c in crit.checks:
            row: dict[str, Any] = {"id": c.id, "question": c.question, "tag": c.tag}
            if c.difficulty is not None:
                row["difficulty"] = c.difficulty
            if c.weight != 1.0:
                row["weight"] = c.weight
            if c.gate:
                row["gate"] = True
            row["expects"] = [{"text": e.text, "region": e.region} for e in c.expects]
            checks.append(row)
        criteria.append({"name": crit.name, "checks": checks})
    row = {"id": item.id, "prompt": item.prompt, "criteria": criteria}
    if item.meta:
        row["meta"] = item.meta
    return row


def write_jsonl(items: Sequence[Item], path: str | Path) -> Path:
    """Write items as rubric JSONL (one row per line, UTF-8), creating parent folders.

    Raises:
        RubricError: an item has an image (training items are prompts only) or a meta value
            that is not JSON-serialisable; the message names the item.
    """
    path = Path(path)
    lines = []
    for item in items:
        if item.image is not None:
            raise RubricError(f"item {item.id}: training items carry no starting image, got {item.image}")
        try:
            lines.append(json.dumps(item_to_row(item), ensure_ascii=False))
        except TypeError as e:
            raise RubricError(f"item {item.id}: field 'meta' is not JSON-serialisable ({e})") from None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def read_jsonl(path: str | Path) -> list[Item]:
    """Read rubric JSONL written by :func:`write_jsonl` (or edited by hand).

    Raises:
        RubricError: the file cannot be read, or any row is bad; the message gives the number
            of bad rows and the first one's ``file:line (item id): field`` error.
    """
    items, errors = load_items(path)
    if errors:
        raise RubricError(f"{len(errors)} bad row(s) in {path}; first: {errors[0]}")
    return items


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m training.procedural.data --n 2000 --seed 0 --out data/``: write train.jsonl and val.jsonl."""
    import argparse

    parser = argparse.ArgumentParser(description="Write procedurally generated slide/chart/poster rubric JSONL.")
    parser.add_argument("--n", type=int, default=2000, help="total items (train + val)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=KINDS)
    parser.add_argument("--val-fraction", type=float, default=0.1)
    parser.add_argument("--out", type=Path, default=Path("data"), help="output folder")
    args = parser.parse_args(argv)
    train, val = make_dataset(args.n, args.seed, tuple(args.kinds), args.val_fraction)
    for name, items in (("train", train), ("val", val)):
        print(f"{write_jsonl(items, args.out / f'{name}.jsonl')}: {len(items)} items")


if __name__ == "__main__":
    main()
