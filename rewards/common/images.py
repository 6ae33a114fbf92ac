"""Open any image a user hands us as the 8-bit RGB page the judges and editors work on.

``Image.convert("RGB")`` alone loses content for two kinds of files: 16/32-bit images are
clipped at 255 (a 16-bit PNG becomes a white page), and transparent pixels keep whatever colour
they store (often black, so black text on a transparent PNG disappears). The rules here:

- alpha (``LA``, ``PA``, ``RGBA``, ``RGBa``, or a ``transparency`` entry on ``1``/``L``/``P``/
  ``RGB``/``I;16``) is composited over ``background`` (white unless the caller names one);
- ``I;16*`` (16-bit) maps 0..65535 linearly onto 0..255; ``I`` (32-bit integer) and ``F``
  (32-bit float) are mapped by the range their values fit: ``F`` within [0, 1] is a
  [0, 1] image, anything within [0, 255] is already 8-bit, within [0, 65535] is 16-bit;
  values outside 0..65535 (or NaN) are refused, since no range is known for them;
- ``1``, ``L``, ``P``, ``RGB``, ``RGBX``, ``CMYK``, ``YCbCr``, ``LAB``, ``HSV`` use Pillow's
  conversion; a mode Pillow cannot convert (``La``, which no file reader produces) is refused;
- the EXIF orientation of a photo is applied, and a multi-frame file gives its first frame.
"""

from __future__ import annotations

import hashlib
import stat
import struct
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from rewards.common.files import file_kind

WHITE = (255, 255, 255)
ALPHA_MODES = ("LA", "PA", "RGBA", "RGBa", "La")  # La: refused, Pillow has no conversion
WIDE_MODES = ("I;16", "I;16L", "I;16B", "I;16N", "I", "F")


class ImageError(ValueError):
    """An image that cannot be read or converted. The message is one line naming the path
    (when known) and the reason."""


def _one_line(e: BaseException) -> str:
    return f"{type(e).__name__}: {' '.join(str(e).split())}"


def _wide_to_l(image: Image.Image) -> Image.Image:
    """A 16/32-bit single-channel image (``WIDE_MODES``) as mode ``L``, by the rules above."""
    a = np.asarray(image, dtype=np.float64)  # (H, W)
    if not np.isfinite(a).all() or (a.size and (a.min() < 0 or a.max() > 65535)):
        lo, hi = (float(np.nanmin(a)), float(np.nanmax(a))) if np.isfinite(a).any() else (float("nan"),) * 2
        raise ImageError(
            f"mode {image.mode} pixel values span {lo:g}..{hi:g} (or are NaN): "
            "only 0..1, 0..255 or 0..65535 can be mapped to 8 bits"
        )
    top = float(a.max()) if a.size else 0.0
    if image.mode.startswith("I;16"):
        full = 65535.0
    elif image.mode == "F" and top <= 1.0:
        full = 1.0
    else:
        full = 255.0 if top <= 255 else 65535.0
    return Image.fromarray(np.rint(a * (255.0 / full)).astype(np.uint8), "L")


def to_rgb(image: Image.Image, background: tuple[int, int, int] = WHITE) -> Image.Image:
    """``image`` as a new 8-bit RGB image (H, W, 3 uint8), any Pillow mode in.

    Args:
        image: a decoded Pillow image of any mode.
        background: RGB colour (0..255 each) that transparent pixels are composited over.

    Raises:
        ImageError: a mode Pillow cannot convert, or wide pixel values with no known range.
    """
    mode = image.mode
    transparency = image.info.get("transparency")
    try:
        if mode in WIDE_MODES:
            gray = _wide_to_l(image)
            if isinstance(transparency, int) and mode != "F":  # a tRNS grey level of a 16-bit PNG
                alpha = Image.fromarray(np.where(np.asarray(image) == transparency, 0, 255).astype(np.uint8), "L")
                gray = Image.merge("LA", (gray, alpha))
            image = gray
            mode = image.mode
        if mode in ALPHA_MODES or image.mode in ALPHA_MODES or transparency is not None:
            rgba = image.convert("RGBA")
            page = Image.new("RGBA", rgba.size, (*background, 255))
            return Image.alpha_composite(page, rgba).convert("RGB")
        return image.convert("RGB")
    except ImageError:
        raise
    except (ValueError, OSError, TypeError) as e:
        raise ImageError(f"cannot convert mode {image.mode} to RGB ({_one_line(e)})") from None


def _not_regular(path: Path) -> str | None:
    """Why ``path`` (which exists) cannot be an image file, or None for a regular file. Decided
    from ``stat`` alone: opening a FIFO for reading blocks until a writer comes, forever."""
    mode = path.stat().st_mode  # follows a symbolic link, as opening would
    if stat.S_ISREG(mode):
        return None
    kind = file_kind(mode, "a special file")
    return f"{kind}, not a file"


def open_image(path: str | Path, background: tuple[int, int, int] = WHITE) -> Image.Image:
    """Read an image file (PNG, JPEG, WebP, TIFF, GIF, BMP...) as 8-bit RGB; see :func:`to_rgb`.

    Args:
        path: the file.
        background: RGB colour transparent pixels are composited over.

    Returns:
        A decoded RGB image (H, W, 3 uint8), EXIF orientation applied, first frame only.

    Raises:
        ImageError: "image not found: <path>", or "cannot read image <path> (<reason>)" for
            anything but a regular file (a folder, a FIFO, a socket, a device: refused without
            opening it, so a FIFO cannot hang the run), an unreadable, truncated or corrupt file,
            a decompression bomb (Pillow's ``MAX_IMAGE_PIXELS``) or a mode that cannot be converted.
    """
    path = Path(path)
    try:
        if (why := _not_regular(path)) is not None:
            raise ImageError(why)
        with Image.open(path) as im:
            im.load()  # decode now: a truncated file fails here, not later inside a judge
            im = ImageOps.exif_transpose(im)
            return to_rgb(im, background)
    except FileNotFoundError:
        raise ImageError(f"image not found: {path}") from None
    except ImageError as e:
        raise ImageError(f"cannot read image {path} ({e})") from None
    except (
        UnidentifiedImageError,
        Image.DecompressionBombError,
        OSError,
        SyntaxError,
        ValueError,
        EOFError,
        TypeError,
        IndexError,
        KeyError,
        struct.error,
    ) as e:  # Pillow plugins raise all of these on bad files
        raise ImageError(f"cannot read image {path} ({_one_line(e)})") from None


def pixels_digest(pixels: Image.Image | np.ndarray) -> bytes:
    """A 16-byte blake2b digest of an image's pixels with its mode and size (or an array's
    dtype and shape): the key under which a page's reads and measures are remembered. Python's
    ``hash`` of the bytes is 64 bits and salted per process; this is neither."""
    if isinstance(pixels, Image.Image):
        head, data = f"{pixels.mode}{pixels.size}", pixels.tobytes()
    else:
        head, data = f"{pixels.dtype}{pixels.shape}", np.ascontiguousarray(pixels).tobytes()
    digest = hashlib.blake2b(head.encode(), digest_size=16)
    digest.update(data)
    return digest.digest()
