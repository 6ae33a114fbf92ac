"""Every generator of ``documents`` draws, for a seed, exactly what the code before the move drew.

The sha256 below were recorded from the renderers as they stood before ``documents/`` existed
(the former ``rewards/eval/adversarial_set.py``, ``rewards/eval/fidelity_set.py``,
``refine/example/render.py``, ``benchmarks/text_editor.py``, ``benchmarks/ocr_recall.py`` at
commit 3483526), with Pillow 13.0.0 and FreeType 2.14.3. Images are hashed by their RGB pixels
(``Image.tobytes``, independent of PNG compression), truth by the JSON each writer writes. A
change that moves one pixel or one truth field of a seeded document fails here: such a change
alters the sets' figures, and says so by updating these values (and the figures) on purpose.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import asdict
from pathlib import Path

import pytest
from PIL import Image

from documents import adversarial, editor_pages, example, fidelity, ocr_pages
from documents.fonts import FACE_FILES, FONT_DIRS
from rewards.importers import load_items

ROOT = Path(__file__).resolve().parents[2]
FONTS = all(any((d / name).is_file() for d in FONT_DIRS) for name in FACE_FILES.values())
pytestmark = pytest.mark.skipif(not FONTS, reason="DejaVu and Liberation fonts not installed (scripts/setup.sh)")


def px(image: Image.Image) -> str:
    assert image.mode == "RGB"
    return hashlib.sha256(image.tobytes()).hexdigest()


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


ADVERSARIAL = {  # seed -> (clean pixels, erroneous pixels, <id>_truth.json)
    0: (
        "c740e10f93d17adc8d4d64f036dc13b35c99b2ce50bc254c902e40711c445a80",
        "2e3b852c506caae84e30a1148c4629ecb612b34ba44f0438cccdb43401506f57",
        "dd72692ef63392d405c6aa0a464cd255a65ef21f104b0135f07db6ef8fa6c868",
    ),
    1: (
        "4e69cc5aa0d33629f1bce1407a1698e49f185a4bfd7ab6be9e9cba1af51cfe08",
        "a42e5d798dd8f0d6f10e863727d09794564721e883090f280811154f2f6b9794",
        "2cd8700b64bff9abf30f8dc93a6cf46a1ccac8fde8bf46d9232bf81cee6d102f",
    ),
    2: (
        "99264082e1854d4f2f06c8092727c1ce0a324074672bed6118063f6cff413e8b",
        "e9e187ed504242b965748b0ac2eb8c5f0013c46d8b2341730a246276a7cde42b",
        "cddc5e8d95a936f7ae75ab151873b3487819e19eb9d426715b1b08dd5aa5a5b7",
    ),
    3: (
        "ed38713ce05ab691c9a2d630fb8dbdbd3e7cdfc3509bb0eb908ee7443e08b798",
        "a54cc4ceb7ca2813fd636b78b5ebbabfbda035365679dee3a9262ea860e578ed",
        "aeec8b3bc01d631fafa42ee36fe57d2ffb3ed308ce5858c301cb71b4355251d9",
    ),
    1000: (
        "f036c86a3b64229e15f5ebcda5f3e9ab11ba41aaf73dd7c13cc64e6c0138c559",
        "f6f7551a0f5994e471ba7e8dd9afbf84cc88723746ab40b9478e62c8bbc0056a",
        "bc9f002031dc7a5134ca70d60cadb9d79edfd276808ec02216d1bf2074db597b",
    ),
}
FIDELITY = {  # seed -> (pixels, questions as JSON)
    0: (
        "af54a63ddd65bfc11655d4d5bebc6f9d9485b27bd1523802d10970d2e24b8162",
        "a6732fa17de9831833e9f83dac2b6e1826859b422908aa1d6e3ffed2638dadc8",
    ),
    3: (
        "ea168cc2cb862f12b614737defecad528b48f1af5320711151f2c9dafc8e50a9",
        "9de4bb760769803e2f359685269ec0a800d6e3640daaa2114786be622e761091",
    ),
    1001: (
        "ec6d8aeb76d28c6e4e591c9f32f6eb8103503fb0c2b0e57529e230cad2aae434",
        "f36ab0302644230a22db87a023bdffdddd8cbb041fb03dfd582244c76655806c",
    ),
}
EDITOR = {  # seed -> (clean pixels, start pixels, strings as JSON)
    0: (
        "06db482336ef993f5f05763f44350e81d840f1839f68e6e6f68318f8c39e2d54",
        "8906abd36ec24523bd3283becd7f6cb4503709f396790fa30f89c93c5ea249bd",
        "251ec4e115f1438520007203a17c2877c8b172d359f5d131423ffdf76c11c3d9",
    ),
    1001: (
        "33263cf77595eb307b04c6a6fd885f97fe46066d259b134eaf02cb03248fbc01",
        "991ae446c463619576b9e0ad5d7e0357a799bf9fefdb70ed7af87a50432274bb",
        "1e502317a13d091049baa7d2ca17181989ae5e9b1b40d68566cc187fc29d254f",
    ),
}
OCR = {  # seed -> (pixels, truth as JSON)
    0: (
        "44bf5b0d551caee3cf5d237e16855e941fb3f9e8d3e9b04efa592f0d70323118",
        "f66b507a467a5bdcdea02a214e581f52e32eb929cfc23d6180f35a52d2cd24b7",
    ),
    1000: (
        "64cd3f040740bc9f3d6170114b2886ddf3095d8e98306ff12ec5eaf9ea69ac50",
        "9b0103e6d56844d44613de5f31521f3eb44c5d3c47bcf140cc92104241b2ac36",
    ),
}
EXAMPLE = {  # item id -> (position in the example (its seed is 0 * 1000 + position), pixels, manifest entry)
    "322": (
        0,
        "c953f43359e127f13a2ea90fa5599523af8bc1c0c95a41daca66530397fa7a56",
        "25290e2e795659d890f1e4b703b876b3b2deede122f8c17b610736d8ab433ed6",
    ),
    "20": (
        5,
        "d6a762864959bd58769d983478f6d43911f208c05e895c8cdaa3e8818987f3bf",
        "c664f5b06e112b818a667550705557a873aa62a11092ead9077e1fe56461931f",
    ),
}


@pytest.mark.parametrize("seed", sorted(ADVERSARIAL))
def test_adversarial_documents_are_unchanged(seed):
    doc = adversarial.make_document(seed)
    got = (px(doc.clean), px(doc.erroneous), sha(json.dumps(doc.truth(), indent=1)))
    assert got == ADVERSARIAL[seed]


@pytest.mark.parametrize("seed", sorted(FIDELITY))
def test_fidelity_documents_are_unchanged(seed):
    doc = fidelity.make_document(seed)
    got = (px(doc.image), sha(json.dumps([asdict(q) for q in doc.questions], indent=1)))
    assert got == FIDELITY[seed]


@pytest.mark.parametrize("seed", sorted(EDITOR))
def test_text_editor_benchmark_documents_are_unchanged(seed):
    clean, start, strings = editor_pages.render_document(seed)
    got = (px(clean), px(start), sha(json.dumps([asdict(p) for p in strings], indent=1)))
    assert got == EDITOR[seed]


@pytest.mark.parametrize("seed", sorted(OCR))
def test_ocr_recall_benchmark_documents_are_unchanged(seed):
    doc = ocr_pages.Doc(seed).render()
    assert (px(doc.image), sha(json.dumps(doc.truth))) == OCR[seed]


@pytest.mark.parametrize("item_id", sorted(EXAMPLE))
def test_example_start_images_are_unchanged(item_id):
    """Rendered from the bundled rows (the subset's rows with their image), so no shared file is needed;
    the pixels are also those of the committed image."""
    items, errors = load_items(ROOT / "refine" / "example" / "bizgeneval_text.jsonl")
    assert errors == []
    item = next(it for it in items if it.id == item_id)
    k, want_px, want_entry = EXAMPLE[item_id]
    img, entry = example.render_item(item, random.Random(0 * 1000 + k))
    assert (px(img), sha(json.dumps(entry, sort_keys=True, ensure_ascii=False))) == (want_px, want_entry)
    assert px(Image.open(ROOT / "refine" / "example" / entry["image"]).convert("RGB")) == want_px
