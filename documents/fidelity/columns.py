"""The two columns of a fidelity page: three items under each bold heading, drawn, then asked
about as text (relation, context, order, list, exact, count) and as style (weight, colour, underline)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from documents.errors import near_miss
from documents.fidelity.page import EXTRA_SEED, Page, word_count
from documents.fidelity.vocab import COUNT_WORDS, VOCAB
from documents.fonts import SANS, SANS_BOLD, SERIF, SERIF_BOLD, dejavu


@dataclass(frozen=True)
class Columns:
    """The two columns as asked (``items``, 3 per column) and as drawn (``drawn``)."""

    h1: str
    h2: str
    items: list[str]
    drawn: list[str]
    count_word: str
    bold_item: int | None
    underlined: bool


def draw_columns(p: Page, y: int) -> Columns:
    """Two columns of three items under bold headings at ``y``; some items carry the count word,
    one may be drawn bold, the left heading may be underlined."""
    rng, extra, d, w = p.rng, p.extra, p.draw, p.w
    h1, h2 = rng.choice(VOCAB[p.kind]["heads"])
    items = rng.sample(VOCAB[p.kind]["items"], 6)
    count_word = rng.choice(COUNT_WORDS)
    n_count = rng.choice([1, 2])
    for k in rng.sample(range(6), n_count):
        items[k] = f"{count_word} {items[k]}"
    drawn = [p.miss(t) for t in items]
    col_x = (50, w // 2 + 20)
    serif_items = rng.random() < 0.5
    hf, itf = dejavu(SANS_BOLD, 22), dejavu(SERIF if serif_items else SANS, 17)
    bold_item = extra.randrange(6) if extra.random() < 0.6 else None  # one item drawn bold
    itf_bold = dejavu(SERIF_BOLD if serif_items else SANS_BOLD, 17)
    underlined = extra.random() < 0.5
    d.text((col_x[0], y), h1, font=hf, fill=(20, 20, 20))
    d.text((col_x[1], y), h2, font=hf, fill=(20, 20, 20))
    if underlined:  # style: an underline under the left heading
        d.line([col_x[0], y + 27, col_x[0] + d.textlength(h1, font=hf), y + 27], fill=(20, 20, 20), width=2)
    for col in range(2):
        for k in range(3):
            d.text(
                (col_x[col], y + 36 + 28 * k),
                drawn[3 * col + k],
                font=itf_bold if 3 * col + k == bold_item else itf,
                fill=(35, 35, 35),
            )
    return Columns(h1, h2, items, drawn, count_word, bold_item, underlined)


def ask_column_text(p: Page, cols: Columns) -> None:
    """The columns' text questions: relation, context, order, list, exact and count."""
    rng, h1, h2, items, drawn = p.rng, cols.h1, cols.h2, cols.items, cols.drawn
    left, right = items[:3], items[3:]
    left_drawn, right_drawn = drawn[:3], drawn[3:]
    # relation: the first item directly below the left heading is left_drawn[0]
    pick = rng.random()
    if pick < 0.5:
        p.ask(
            "relation",
            f'Does the first item directly below the "{h1}" heading read exactly "{left[0]}"?',
            left_drawn[0] == left[0],
        )
    else:  # an item of the other column is not directly below this heading
        p.ask("relation", f'Does the first item directly below the "{h1}" heading read exactly "{right[0]}"?', False)
    if rng.random() < 0.5:
        p.ask("relation", f'Is the heading "{h2}" to the right of "{h1}"?', True)
    else:
        p.ask("relation", f'Is the heading "{h1}" to the right of "{h2}"?', False)
    # context: a quote naming the element ("the item under the heading with the word ..."): the
    # second item of that column, or (asked wrongly) the other column's
    ctx = random.Random(p.seed + 2 * EXTRA_SEED)
    k, own = ctx.randrange(3), ctx.random() < 0.5
    asked = left[k] if own else right[k]
    p.ask(
        "context",
        f'Does the item under the heading with the word "{h1}" read exactly "{asked}"?',
        own and left_drawn[k] == left[k],
    )
    # order: the right column from top to bottom, sometimes asked with two items swapped
    asked = list(right) if rng.random() < 0.5 else [right[1], right[0], right[2]]
    p.ask(
        "order",
        f'Under the "{h2}" heading, do the items read exactly, from top to bottom: '
        + ", ".join(f'"{t}"' for t in asked)
        + "?",
        asked == right_drawn,
    )
    # list: the left column's items, all present
    p.ask(
        "list",
        "Does the left column include the items " + ", ".join(f'"{t}"' for t in left[:2]) + f', and "{left[2]}"?',
        left_drawn == left,
    )
    # exact near misses on single items
    k = rng.randrange(6)
    p.ask("exact", f'Is there an item that reads exactly "{items[k]}"?', items[k] in drawn)
    # count: how often a word was drawn (as a whole word)
    n_drawn = word_count(cols.count_word, drawn)
    asked_n = rng.choice([1, 2])
    p.ask(
        "count",
        f'Does the word "{cols.count_word}" appear exactly {"once" if asked_n == 1 else "twice"}?',
        n_drawn == asked_n,
    )


def ask_column_style(p: Page, cols: Columns) -> None:
    """The columns' style questions: weight of a heading and of an item, colour of an item, and
    the underline (a style only a VLM can see)."""
    rng, extra, h1, h2, items, drawn = p.rng, p.extra, cols.h1, cols.h2, cols.items, cols.drawn
    # weight: the headings are drawn bold, so the truth is the string's
    asked = h2 if rng.random() < 0.5 else near_miss(h2, rng)
    p.ask("weight", f'Is there a bold heading reading exactly "{asked}"?', asked == h2)
    # weight: an item asked bold (the one drawn bold, or a regular one)
    j = cols.bold_item if cols.bold_item is not None and extra.random() < 0.5 else extra.randrange(6)
    p.ask("weight", f'Is the item "{items[j]}" written in bold?', j == cols.bold_item and drawn[j] == items[j])
    # colour: dark body text asked as white
    j = extra.randrange(6)
    p.ask("colour", f'Is the item "{items[j]}" written in white?', False)
    # style (VLM-only): the underline; code may only say "no" (when the string is not read)
    asked = h1 if extra.random() < 0.6 else near_miss(h1, extra)
    p.ask("style", f'Is the heading "{asked}" underlined?', cols.underlined and asked == h1)
