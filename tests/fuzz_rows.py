"""A seeded generator of malformed rubric rows, result files and images, for tests/cli/test_fuzz_rows.py.

Every case starts from a valid row of one of the three formats (RubricLoop, BizGenEval, GenExam)
and gets zero to two mutations: a field set to a value of the wrong type, a huge, empty or odd-
Unicode string, a field removed, an image pointing at an odd-mode, truncated, empty or missing
file, or byte damage to the JSON line itself (invalid UTF-8, a BOM, truncation). A case never
contains a ``\\n`` byte, so line k of the file is case k.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image
from refine_rows import text_page

ODD_TEXT = [
    "",
    " ",
    "\u202eRTL override",
    "e\u0301\u0301\u0301",
    "\U0001f44d\U0001f3fd emoji",
    "nul\u0000byte",
    "line\u2028sep",
    "\ufeffbom",
    "\U0010ffff",
    "tab\tand\rcr",
    "\u200b\u200b",
    "Ωmega «quotes» “curly”",
    "a" * 20000,
    "../../etc/passwd",
    "C:\\\\windows",
    "%s%n{0}",
    "'\"'\"",
    "\x1b[31mred",
]
WRONG_VALUES = [None, 0, -1, 3.5, 1e308, True, False, [], {}, [1, "a"], {"a": 1}, "", "x" * 20000, [[[[[]]]]]]
BAD_BYTES = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\x80\x80"]


@dataclass
class Case:
    """One JSONL line and what was done to it (``mutations`` empty: the row is valid)."""

    line: bytes
    fmt: str
    mutations: list[str]


def make_images(folder: Path) -> dict[str, str]:
    """Write the start images cases may point at; returns name -> relative path.

    ``ok*`` are readable pages in several modes (they must give a result); the others must
    give a one-line image error.
    """
    (folder / "images").mkdir(exist_ok=True)
    page = text_page("Q3 Revenue", size=(240, 120))  # the title in the top half
    gray = np.asarray(page.convert("L"))
    good = {
        "ok.png": page,
        "ok_i16.png": Image.fromarray(gray.astype(np.uint16) * 257),
        "ok_rgba.png": Image.fromarray(np.dstack([np.zeros_like(gray)] * 3 + [255 - gray]), "RGBA"),
        "ok_p.gif": page.convert("P"),
        "ok_cmyk.jpg": page.convert("CMYK"),
        "ok_f.tiff": Image.fromarray(gray.astype(np.float32) / 255),
        "ok_1.webp": page.convert("1"),
    }
    for name, im in good.items():
        im.save(folder / "images" / name)
    whole = (folder / "images" / "ok.png").read_bytes()
    (folder / "images" / "cut.png").write_bytes(whole[: len(whole) // 2])
    (folder / "images" / "empty.png").write_bytes(b"")
    (folder / "images" / "text.png").write_text("not an image")
    (folder / "images" / "folder.png").mkdir(exist_ok=True)
    Image.fromarray(gray.astype(np.float32) * 1e6).save(folder / "images" / "huge_f.tiff")
    paths = {n: f"images/{n}" for n in good}
    paths.update({n: f"images/{n}" for n in ("cut.png", "empty.png", "text.png", "folder.png", "huge_f.tiff")})
    paths["missing.png"] = "images/missing.png"
    return paths


def _base_row(fmt: str, k: int, rng: random.Random, image: str) -> dict[str, Any]:
    if fmt == "rubricloop":
        return {
            "id": f"r{k}",
            "prompt": "a slide titled Q3 Revenue",
            "image": image,
            "criteria": [
                {
                    "name": "text",
                    "checks": [
                        {
                            "id": "t",
                            "question": "Does the title read 'Q3 Revenue'?",
                            "expects": [{"text": "Q3 Revenue", "region": rng.choice([None, "top"])}],
                        }
                    ],
                },
                {
                    "name": "style",
                    "checks": [
                        {
                            "id": "s",
                            "question": "Is the background white?",
                            "difficulty": "easy",
                            "weight": 2,
                            "gate": False,
                            "tag": "style",
                        }
                    ],
                },
            ],
        }
    if fmt == "bizgeneval":
        return {
            "id": 10_000 + k,
            "domain": "slides",
            "dimension": "text",
            "prompt": "a slide titled Q3 Revenue",
            "image": image,
            "questions": [
                'Does the title read exactly "Q3 Revenue"?',
                "Is the title bold?",
                'Does the slide contain "Q3"?',
            ],
            "easy_qidxs": [1],
            "hard_qidxs": [2, 3],
        }
    return {
        "id": f"g{k}",
        "prompt": "a slide titled Q3 Revenue",
        "image": image,
        "subject": "Economics",
        "scoring_points": [
            {"question": "Is the title 'Q3 Revenue'?", "score": 0.5},
            {"question": "Is there a chart?", "score": 0.5},
        ],
    }


def _paths(obj: Any, prefix=()) -> list[tuple]:
    """Every (container path) -> key pair inside ``obj``: where a mutation can act."""
    out = []
    if isinstance(obj, dict):
        for key, value in obj.items():
            out.append(prefix + (key,))
            out += _paths(value, prefix + (key,))
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            out.append(prefix + (i,))
            out += _paths(value, prefix + (i,))
    return out


def _parent(row, path):
    for p in path[:-1]:
        row = row[p]
    return row


def make_case(
    k: int,
    rng: random.Random,
    images: dict[str, str],
    formats=("rubricloop", "bizgeneval", "genexam"),
    p_good_image: float = 1.0,
) -> Case:
    """Case number ``k``: a valid row of a random format with 0-2 random mutations. With
    ``images`` empty the row has no ``image`` field (BizGenEval result files are then named
    ``<domain>_<dimension>_<id>.json``). The start image is a readable one (``ok*``) with
    probability ``p_good_image``, else a broken one."""
    fmt = rng.choice(formats)
    good_images = [v for n, v in images.items() if n.startswith("ok")]
    bad_images = [v for n, v in images.items() if not n.startswith("ok")]
    pool = good_images if not bad_images or rng.random() < p_good_image else bad_images
    row = _base_row(fmt, k, rng, rng.choice(pool) if pool else "")
    if not images:
        del row["image"]
    mutations: list[str] = []
    raw_damage = None
    for _ in range(rng.choice([0, 1, 1, 2])):
        kind = rng.choice(["wrong_type", "odd_text", "delete", "image", "raw", "unicode_key"])
        paths = _paths(row)
        if kind == "wrong_type":
            path = rng.choice(paths)
            _parent(row, path)[path[-1]] = rng.choice(WRONG_VALUES)
        elif kind == "odd_text":
            strings = [p for p in paths if isinstance(_parent(row, p)[p[-1]], str)]
            if not strings:
                continue
            path = rng.choice(strings)
            _parent(row, path)[path[-1]] = rng.choice(ODD_TEXT)
        elif kind == "delete":
            path = rng.choice(paths)
            parent = _parent(row, path)
            del parent[path[-1]]
        elif kind == "image":
            if not images:
                continue
            row["image"] = rng.choice(list(images.values()) + ["", "/", "images", "\u0000.png", "x" * 5000 + ".png"])
        elif kind == "unicode_key":
            row[rng.choice(ODD_TEXT[:12]) or "k"] = rng.choice(WRONG_VALUES)
        else:
            raw_damage = rng.choice(["truncate", "bad_bytes", "bom", "garbage", "crlf", "surrogate", "nan", "array"])
        mutations.append(kind if kind != "raw" else f"raw:{raw_damage}")
    line = json.dumps(row, ensure_ascii=rng.random() < 0.5).encode("utf-8")
    if raw_damage == "truncate":
        line = line[: rng.randrange(1, len(line))]
    elif raw_damage == "bad_bytes":
        at = rng.randrange(len(line))
        line = line[:at] + rng.choice(BAD_BYTES) + line[at:]
    elif raw_damage == "bom":
        line = b"\xef\xbb\xbf" + line
    elif raw_damage == "garbage":
        line = line + b" trailing"
    elif raw_damage == "crlf":
        line = line + b"\r"
    elif raw_damage == "surrogate":
        line = line.replace(b'"prompt": "', b'"prompt": "\\ud800', 1)
    elif raw_damage == "nan":
        line = line.replace(b'"prompt": ', b'"nan_field": NaN, "prompt": ', 1)
    elif raw_damage == "array":
        line = b"[" + line + b"]"
    assert b"\n" not in line
    return Case(line, fmt, mutations)


def make_cases(
    n: int,
    seed: int,
    images: dict[str, str],
    formats=("rubricloop", "bizgeneval", "genexam"),
    p_good_image: float = 1.0,
) -> list[Case]:
    """``n`` cases from ``random.Random(seed)``; about one in four gets no mutation."""
    rng = random.Random(seed)
    return [make_case(k, rng, images, formats, p_good_image) for k in range(n)]


RESULT_FILES = [
    b'{"meta_info": {"1": {"result": true, "reason": "ok"}, "2": {"result": false}, "3": {"result": true}}}',
    b'{"meta_info": {}}',
    b'{"meta_info": []}',
    b"[]",
    b"{",
    b"",
    b'\xff\xfe{"meta_info": {}}',
    b'{"meta_info": {"1": {"result": "maybe"}, "2": null, "3": {"result": 1}}}',
    b'{"meta_info": {"1": {"result": true}}, "extra": NaN}',
    b'\xef\xbb\xbf{"meta_info": {"1": {"result": false}}}',
    b'{"meta_info": {"99": {"result": true}, "-1": {"result": false}, "x": {"result": true}}}',
    b'{"meta_info": {"1": {"result": true, "reason": "' + b"r" * 100000 + b'"}}}',
]


def write_result_files(folder: Path, ids: list, seed: int) -> None:
    """One BizGenEval result file (``<id>.json``) for most ids, each a random entry of ``RESULT_FILES``."""
    rng = random.Random(seed)
    folder.mkdir(exist_ok=True)
    for item_id in ids:
        if rng.random() < 0.85:
            (folder / f"{item_id}.json").write_bytes(rng.choice(RESULT_FILES))
