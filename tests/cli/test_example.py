"""The bundled example: real BizGenEval rows, deterministic renders, manifest, verify script."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from documents import example
from documents.errors import CORRUPTIONS, corrupt
from documents.fonts import DEJAVU
from refine.example import render
from rewards.importers import load_items

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "refine" / "example"


def test_rows_load_and_images_exist():
    items, errors = load_items(EXAMPLE / "bizgeneval_text.jsonl")
    assert errors == [] and [it.id for it in items] == list(render.ITEM_IDS)
    for it in items:
        assert it.source == "bizgeneval" and it.meta["dimension"] == "text"
        with Image.open(it.image) as im:
            assert im.width <= 1024
        assert it.image.stat().st_size < 150_000
    assert (EXAMPLE / "LICENSE.bizgeneval").read_text().startswith("MIT")


@pytest.mark.skipif(not render.SOURCE.exists(), reason="benchmark subset not on this machine")
def test_rubric_fields_unmodified():
    source = {str(json.loads(l)["id"]): json.loads(l) for l in render.SOURCE.read_text().splitlines() if l.strip()}
    for line in (EXAMPLE / "bizgeneval_text.jsonl").read_text().splitlines():
        row = json.loads(line)
        image = row.pop("image")
        assert image == f"images/{row['id']}.png" and row == source[str(row["id"])]


def test_manifest_corruptions():
    manifest = json.loads((EXAMPLE / "manifest.json").read_text())
    strings = [s for e in manifest["items"] for s in e["strings"]]
    bad = [s for s in strings if s["corrupted"]]
    eligible = [s for s in strings if len(s["text"]) >= example.MIN_CORRUPT_LEN]
    assert 0.4 <= len(bad) / len(eligible) <= 0.6
    assert {s["corruption"] for s in bad} == set(CORRUPTIONS)
    for s in strings:
        assert (s["rendered"] != s["text"]) == s["corrupted"]
        if s["corruption"] == "missing":
            assert s["rendered"] == ""
        elif s["corrupted"]:
            assert abs(len(s["rendered"]) - len(s["text"])) <= 1


def test_corrupt_kinds():
    import random

    rng = random.Random(0)
    assert corrupt("Total", "missing", rng) == ""
    dropped, swapped, subbed = (corrupt("Revenue", k, rng) for k in ("drop", "swap", "substitute"))
    assert len(dropped) == 6 and dropped[0] == "R" and dropped != "Revenue"
    assert swapped != "Revenue" and sorted(swapped) == sorted("Revenue")
    assert len(subbed) == 7 and sum(a != b for a, b in zip(subbed, "Revenue")) == 1


@pytest.mark.skipif(not (render.SOURCE.exists() and DEJAVU.exists()), reason="source or DejaVu fonts missing")
def test_rerender_is_deterministic(tmp_path):
    render.main(["--out", str(tmp_path)])
    assert (
        json.loads((tmp_path / "manifest.json").read_text())["items"]
        == json.loads((EXAMPLE / "manifest.json").read_text())["items"]
    )
    for item_id in render.ITEM_IDS:
        a = np.asarray(Image.open(tmp_path / "images" / f"{item_id}.png"))
        b = np.asarray(Image.open(EXAMPLE / "images" / f"{item_id}.png"))
        assert np.array_equal(a, b), item_id


@pytest.mark.slow
def test_verify_script_counts(tmp_path):
    """best.png = the start image: nothing fixed, nothing broken (tesseract engine, fast)."""
    manifest = json.loads((EXAMPLE / "manifest.json").read_text())
    entry = next(e for e in manifest["items"] if e["id"] == "21")
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "images").mkdir()
    (tmp_path / "m" / "images" / "21.png").write_bytes((EXAMPLE / entry["image"]).read_bytes())
    (tmp_path / "m" / "manifest.json").write_text(json.dumps({"items": [entry]}))
    (tmp_path / "out" / "21").mkdir(parents=True)
    (tmp_path / "out" / "21" / "best.png").write_bytes((EXAMPLE / entry["image"]).read_bytes())
    res = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "verify_example.py"),
            "--out",
            str(tmp_path / "out"),
            "--manifest",
            str(tmp_path / "m" / "manifest.json"),
            "--engine",
            "tesseract",
            "--json",
            str(tmp_path / "r.json"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    n_bad = sum(s["corrupted"] for s in entry["strings"])
    assert report["fixed"] == 0 and report["errors"] == n_bad == 2 and report["broken"] == 0
