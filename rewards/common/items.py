"""One item's failure in a run over many (rubricloop-refine, rubricloop-judge), the loader of an
item's starting image that raises it, and :func:`writing`, which turns a failed write of one of
the item's files (a full disk) into that item's failure."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from PIL import Image

from rewards.common.images import ImageError, open_image


class ItemError(Exception):
    """A per-item failure (bad image, no generator, model error). Recorded, never fatal to the run."""


class ItemWriteError(ItemError):
    """One of the item's output files could not be written (disk full, quota, permissions). The
    item fails in one line; what it had written is torn and is removed by the run."""


@contextmanager
def writing(path: Path, item_id: str) -> Iterator[None]:
    """Run the block that writes ``path`` for item ``item_id``; an ``OSError`` in it becomes an
    :class:`ItemWriteError`: "item <id>: cannot write <path> (No space left on device)"."""
    try:
        yield
    except OSError as e:
        reason = e.strerror or " ".join(str(e).split()) or type(e).__name__
        raise ItemWriteError(f"item {item_id}: cannot write {path} ({reason})") from None


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
