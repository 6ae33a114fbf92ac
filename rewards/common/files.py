"""What kind of file a path is, told from ``os.stat`` alone: opening a FIFO for reading blocks
until a writer comes (for ever, with none), and a device may never end, so a path that is not a
regular file is refused before anything opens it."""

from __future__ import annotations

import stat

FILE_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)
"""``st_mode`` tests and the words a refusal uses for them."""


def file_kind(mode: int, other: str) -> str:
    """The words for a non-regular file of ``st_mode`` ``mode`` ("a FIFO"), else ``other``."""
    return next((name for test, name in FILE_KINDS if test(mode)), other)
