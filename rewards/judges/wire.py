"""What the judge server (``rewards.judges.serve``) and its client (``rewards.judges.http_judge``)
send each other, as JSON.

``POST /judge`` request::

    {"images": ["data:image/png;base64,...", ...],     # N images, lossless PNG, RGB
     "prompts": [str, ...],                            # N prompts
     "checks": [[<check>, ...], ...]}                  # N lists of checks

answer ``{"judge": <the served judge's name>, "verdicts": [[<verdict>, ...], ...]}`` (one list per
image, one verdict per check, in order) or, on an error, ``{"error": "<one line>"}`` with status
400 (a bad request), 401 (a wrong API key) or 500 (the judge failed). A check is
``dataclasses.asdict(Check)``, its compiled spec included, so the server decides exactly the
check the client holds, without compiling the question again; a verdict is ``Verdict.to_dict()``.
"""

from __future__ import annotations

import base64
import dataclasses
import io
import types
import typing
from typing import Any

from PIL import Image

from rewards.rubric import Check, Verdict

MAX_SIDE = 1 << 20
"""No downscaling: the server judges the pixels the client holds (PNG is lossless)."""


def check_to_dict(check: Check) -> dict[str, Any]:
    """``check`` as JSON-ready containers (``dataclasses.asdict``; tuples become lists in JSON)."""
    return dataclasses.asdict(check)


def check_from_dict(data: dict[str, Any]) -> Check:
    """The :class:`Check` :func:`check_to_dict` wrote, nested dataclasses (expectations, the
    compiled spec, its anchors and element) rebuilt from the field types.

    Raises:
        TypeError: a field the dataclass does not have, or a required one missing.
        ValueError: a value of the wrong shape (e.g. a list where an object belongs).
    """
    return _decode(Check, data)


def _decode(tp: Any, value: Any) -> Any:
    """``value`` (JSON containers) as type ``tp``: dataclasses from dicts, ``tuple[X, ...]`` from
    lists, ``X | None`` as X or None; anything else as it is."""
    if value is None:
        return None
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(tp) if a is not type(None)]
        return _decode(options[0], value) if len(options) == 1 else value
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise ValueError(f"expected a list for {tp}, got {type(value).__name__}")
        return tuple(_decode(typing.get_args(tp)[0], v) for v in value)
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise ValueError(f"expected an object for {tp.__name__}, got {type(value).__name__}")
        hints = typing.get_type_hints(tp)
        return tp(**{k: _decode(hints.get(k, Any), v) for k, v in value.items()})
    return value


def image_to_data_url(image: Image.Image) -> str:
    """``image`` as an RGB PNG ``data:`` URL, at its own size."""
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def image_from_data_url(url: str) -> Image.Image:
    """The RGB image of a ``data:image/...;base64,`` URL.

    Raises:
        ValueError: not a base64 data URL, or bytes PIL cannot read.
    """
    if not isinstance(url, str) or not url.startswith("data:image/") or "," not in url:
        raise ValueError("an image must be a data:image/...;base64, URL")
    try:
        with Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1], validate=True))) as im:
            return im.convert("RGB")
    except (OSError, ValueError) as e:
        raise ValueError(f"an image could not be read: {type(e).__name__}: {e}") from None


def verdicts_from_json(rows: Any, checks: list[list[Check]]) -> list[list[Verdict]]:
    """The verdict lists of a server's answer, checked against the checks sent.

    Raises:
        ValueError: not one list per image, or not one verdict per check with the check's id.
    """
    if not isinstance(rows, list) or len(rows) != len(checks):
        raise ValueError(f"the server sent {_count(rows)} verdict lists for {len(checks)} images")
    out = []
    for row, cs in zip(rows, checks):
        if not isinstance(row, list) or len(row) != len(cs):
            raise ValueError(f"the server sent {_count(row)} verdicts for {len(cs)} checks")
        verdicts = [Verdict.from_dict(v) for v in row]
        if [v.check_id for v in verdicts] != [c.id for c in cs]:
            raise ValueError("the server's verdicts are not for the checks sent, in order")
        out.append(verdicts)
    return out


def _count(value: Any) -> str:
    return str(len(value)) if isinstance(value, list) else f"a {type(value).__name__}, not"
