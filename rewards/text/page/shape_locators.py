"""Locator rule of containers named by shape and colour (``rewards.text.page.locators``): "inside
the blue circle", "the red rounded badge", "on the green button", "in the dark box", "the top dark
blue rounded rectangle", "the left vertical blue phase box", "the circular icon".

**Reading the phrase** (:func:`parse_shape`): its words, hyphenated words split, must all be
shape words (``SHAPES``: circle, oval, rounded, pill, rectangle, box, square, badge, button, tag,
chip and their adjectives), colour words (``COLOURS``), position words (``region_locators.POSITIONS``),
"vertical" or "horizontal", size words, words that name what the container shows (``ROLES``:
label, icon, text, title, phase...) and fillers ("in", "inside", "on", "the"); a shape word must
be among them ("the circular icon" is one, "the icon" none). Ordinals,
counts, names and any other word make it no shape phrase, and so does a bare noun ("circle" is
what the compiler leaves of "the '01' circle", an anchor's container): the part stays a VLM part.

**The rule** (:func:`_shaped`): an occurrence of the string (``_Ctx.held``: whole lines when the
question reads it whole) lies in a filled container (``shapes.container_around``) whose shape
has a name every shape word of the phrase accepts (``SHAPES``), whose fill every colour word
names (``shapes.colour_words``), that is small (at most ``SMALL_SHARE`` of the page) when the phrase says
small, badge, button, tag or chip, taller than wide by ``ORIENTATION`` when it says vertical (wider
when horizontal), and that stands where its position words say: in that region of the page
(``region_locators.parse_region`` on the container's box) and the outermost that way of the
containers of its colour and shape (``shapes.siblings``: "the top rectangle" is no second one
under another). Several strings: each in one such container, the same one unless the noun is
plural. When the question reads the strings whole ("labeled exactly", ``TextSpec.reads_whole``)
the container holds no other word (:func:`_alone`): "Note: / Preparation / Phase / (draft)"
wrapped in a box is no box labeled "Preparation Phase", though each line is whole. Yes-only:
when no container is found (a gradient, a photo, a frame with a gap) or it does not match, the
part stays a VLM part (withheld); the "no" comes only from the text part.
"""

from __future__ import annotations

import re

from rewards.text.page.locator_base import _Ctx
from rewards.text.page.page_lines import _Page
from rewards.text.page.region_locators import POSITIONS, in_region, parse_region
from rewards.text.page.shapes import Container, colour_words, container_around, siblings

_ANY = {"circle", "oval", "rounded", "pill", "rect"}
SHAPES = {
    "circle": {"circle"}, "circular": {"circle"}, "round": {"circle"},
    "oval": {"oval"}, "ellipse": {"oval"}, "elliptical": {"oval"},
    "rounded": {"rounded"}, "pill": {"pill"}, "capsule": {"pill"},
    "rectangle": {"rect", "rounded"}, "rectangular": {"rect", "rounded"}, "box": {"rect", "rounded"},
    "square": {"square"}, "badge": _ANY, "button": {"rect", "rounded", "pill"},
    "tag": {"rect", "rounded", "pill"}, "chip": {"rect", "rounded", "pill"},
}  # fmt: skip
"""Shape words (singular) and the shape names (``shapes.Container.shapes``) each accepts."""

SMALL_NOUNS = frozenset("badge button tag chip".split())
"""Containers that are small (``SMALL_SHARE``)."""

COLOURS = frozenset(
    "red orange yellow green blue purple pink brown white gray grey black dark light pale navy olive beige "
    "cream teal cyan magenta violet".split()
)
"""Colour words the fill must be named by (``shapes.colour_words``)."""

ROLES = frozenset("label icon text title branch phase step number marker indicator heading header caption name".split())
"""Words that name what the container shows, not its look."""

FILLERS = frozenset("in inside within on at the a an located positioned placed shown shaped very".split())
SIZES = frozenset("small large big tiny".split())

SMALL_SHARE = 0.03
"""A small container (a badge, a button) covers at most this share of the page."""

ORIENTATION = 1.3
"""A vertical (horizontal) container is this many times taller (wider) than wide (tall)."""

SHAPED = re.compile(r"locator '([A-Za-z][A-Za-z -]*)'")
"""A locator part of letters, spaces and hyphens; :func:`parse_shape` tells whether it names a shape."""


def _singular(word: str) -> tuple[str, bool]:
    """(the word without a plural ending, whether it had one) for the shape and role nouns."""
    for stem in (word[:-2], word[:-1]):
        if word != stem and (stem in SHAPES or stem in ROLES) and word in (stem + "s", stem + "es"):
            return stem, True
    return word, False


def parse_shape(phrase: str) -> dict | None:
    """What a locator phrase asks of a container (module docstring), or None when it is no shape phrase.

    Returns:
        {"shapes": [accepted shape names per shape word], "colours": set, "small": bool,
        "orient": "vertical" | "horizontal" | None, "positions": [position words], "plural": bool}.
    """
    out = {"shapes": [], "colours": set(), "small": False, "orient": None, "positions": [], "plural": False}
    words = [w for w in re.split(r"[\s-]+", phrase.lower()) if w]
    if len(words) < 2:
        return None  # a bare "circle" is the compiler's rest of "the '01' circle": an anchor's, not the string's
    for raw in words:
        word, plural = _singular(raw)
        out["plural"] |= plural
        if word in SHAPES:
            out["shapes"].append(SHAPES[word])
            out["small"] |= word in SMALL_NOUNS
        elif word in COLOURS:
            out["colours"].add({"violet": "purple"}.get(word, word))
        elif word in POSITIONS:
            out["positions"].append(word)
        elif word in ("vertical", "horizontal"):
            out["orient"] = word
        elif word in SIZES:
            out["small"] |= word in ("small", "tiny")
        elif word not in ROLES and word not in FILLERS:
            return None
    return out if out["shapes"] else None


def is_shape(part: str) -> bool:
    """True when ``part`` is a ``locator '...'`` VLM part that names a container by its shape."""
    m = SHAPED.fullmatch(part)
    return m is not None and parse_shape(m.group(1)) is not None


def shape_parts(patterns: tuple[str, ...], parts: list[str]) -> list[str | None]:
    """The shape rule's part: the first of ``parts`` that names a shape (``is_shape``), or [None]."""
    return [next((p for p in parts if is_shape(p)), None)]


def admits_shape(part: str, n_texts: int) -> bool:
    """The shape rule's pre-check: ``part`` names a shape (``is_shape``)."""
    return is_shape(part)


def matches(page: _Page, c: Container, asked: dict) -> bool:
    """True when container ``c`` is what ``asked`` (:func:`parse_shape`) describes."""
    w, h = page.size
    bw, bh = c.box[2] - c.box[0], c.box[3] - c.box[1]
    names = c.shapes()
    if not all(names & accepted for accepted in asked["shapes"]) or not asked["colours"] <= colour_words(c.fill):
        return False
    if asked["small"] and bw * bh > SMALL_SHARE * w * h:
        return False
    tall, wide = bh >= ORIENTATION * bw, bw >= ORIENTATION * bh
    if asked["orient"] == "vertical" and not tall or asked["orient"] == "horizontal" and not wide:
        return False
    if not asked["positions"]:
        return True
    bounds = parse_region(" ".join(asked["positions"]))
    return bounds is not None and in_region(c.box, bounds, (w, h)) and _outermost(page, c, asked["positions"])


def _outermost(page: _Page, c: Container, positions: list[str]) -> bool:
    """True when no sibling container (``shapes.siblings``) lies beyond ``c`` the way each of
    ``positions`` says (its centre past ``c``'s by half ``c``'s size on that axis)."""
    cx, cy = (c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2
    half_w, half_h = (c.box[2] - c.box[0]) / 2, (c.box[3] - c.box[1]) / 2
    for s in siblings(page, c):
        sx, sy = (s.box[0] + s.box[2]) / 2, (s.box[1] + s.box[3]) / 2
        beyond = {
            "left": sx < cx - half_w, "right": sx > cx + half_w,
            "top": sy < cy - half_h, "upper": sy < cy - half_h,
            "bottom": sy > cy + half_h, "lower": sy > cy + half_h,
        }  # fmt: skip
        if any(beyond.get(p, False) for p in positions):
            return False
    return True


def _alone(page: _Page, c: Container, ours: list) -> bool:
    """True when every word read inside container ``c`` (its centre in ``c``'s box; marks aside)
    lies within one of the boxes ``ours``: no other text shares the container."""
    for ln in page.lines:
        for w in ln.words:
            x, y = (w.box[0] + w.box[2]) / 2, (w.box[1] + w.box[3]) / 2
            if not (c.box[0] <= x <= c.box[2] and c.box[1] <= y <= c.box[3]) or not any(ch.isalnum() for ch in w.text):
                continue
            if not any(b[0] - 2 <= x <= b[2] + 2 and b[1] - 2 <= y <= b[3] + 2 for b in ours):
                return False
    return True


def _shaped(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "a container named by shape and colour" (module docstring)."""
    asked = parse_shape(m[0].group(1))
    if asked is None or not ctx.held:
        return False
    page = ctx.page
    boxes = [[c for c in (container_around(page, b) for b in held) if c is not None] for held in ctx.held]
    ok = [[c for c in cs if matches(page, c, asked)] for cs in boxes]
    if ctx.whole:  # "labeled exactly": the container shows the strings and nothing else
        ours = [b for held in ctx.held for b in held]
        ok = [[c for c in cs if _alone(page, c, ours)] for cs in ok]
    if asked["plural"]:
        return all(ok)
    first = {c.box for c in ok[0]}
    return bool(first) and all(first & {c.box for c in cs} for cs in ok[1:])
