import numpy as np
import pytest
from PIL import Image

from rewards.common.images import pixels_digest
from rewards.common.options import bool_problems, require_bools


def test_bool_problems_names_each_non_bool_with_its_prefix():
    assert bool_problems({"a": True, "b": "flase", "c": 1}, prefix="guards.") == [
        "guards.b must be true or false, got 'flase'",
        "guards.c must be true or false, got 1",
    ]
    assert bool_problems({"a": False}) == []


def test_require_bools_raises_the_first_with_its_owner():
    require_bools("X", a=True, b=False)
    with pytest.raises(ValueError, match=r"^X: b must be true or false, got None$"):
        require_bools("X", a=True, b=None, c="no")


def test_pixels_digest_tells_pixels_mode_and_size_apart():
    page = Image.new("RGB", (4, 3), "white")
    same = Image.new("RGB", (4, 3), "white")
    dot = page.copy()
    dot.putpixel((1, 1), (0, 0, 0))
    assert pixels_digest(page) == pixels_digest(same)
    assert len(pixels_digest(page)) == 16
    assert pixels_digest(dot) != pixels_digest(page)
    assert pixels_digest(Image.new("RGB", (3, 4), "white")) != pixels_digest(page)  # same bytes, other size
    assert pixels_digest(Image.new("L", (12, 3), 255)) != pixels_digest(page)  # same bytes, other mode
    arr = np.asarray(page)
    assert pixels_digest(arr) == pixels_digest(arr.copy())
    assert pixels_digest(arr.reshape(4, 3, 3)) != pixels_digest(arr)
