"""One item's failure in a run over many (rubricloop-refine, rubricloop-judge), and the loader of
an item's starting image that raises it."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from rewards.common.images import ImageError, open_image


class ItemError(Exception):
    """A per-item failure (bad image, no generator, model error). Recorded, never fatal to the run."""


def load_item_image(path: Path, item_id: str) -> Image.Image:
    """Open an item's starting image as 8-bit RGB (any mode: see ``rewards.common.images``).

    Returns:
        The decoded RGB image (H, W, 3 uint8).

    Raises:
        ItemError: missing file, unreadable/corrupt image or unconvertible mode, naming the item and path.
    """
    try:
        return open_image(path)
    except ImageError as e:
        raise ItemError(f"item {item_id}: {e}") from None
