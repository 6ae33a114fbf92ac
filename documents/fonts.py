"""The fonts the synthetic documents are set in: the DejaVu and Liberation files Debian installs
(``scripts/setup.sh`` installs both when missing), named by family, weight and slant.

Every generator of :mod:`documents` and the text editor's type matcher
(``refine.editors.text.type_match``) open their faces through this module, so one table says
which file a family's regular or bold cut is.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_ROOT = Path("/usr/share/fonts/truetype")
DEJAVU = FONT_ROOT / "dejavu"
LIBERATION = FONT_ROOT / "liberation"
FONT_DIRS = (DEJAVU, LIBERATION)
SANS, SANS_BOLD, SERIF, SERIF_BOLD = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf"
"""The DejaVu file names, under :data:`DEJAVU`."""

FACE_FILES = {  # (family, bold, italic) -> file name, in one of FONT_DIRS
    ("DejaVu Serif", False, False): "DejaVuSerif.ttf",
    ("DejaVu Serif", True, False): "DejaVuSerif-Bold.ttf",
    ("DejaVu Serif", False, True): "DejaVuSerif-Italic.ttf",
    ("DejaVu Serif", True, True): "DejaVuSerif-BoldItalic.ttf",
    ("DejaVu Sans", False, False): "DejaVuSans.ttf",
    ("DejaVu Sans", True, False): "DejaVuSans-Bold.ttf",
    ("DejaVu Sans", False, True): "DejaVuSans-Oblique.ttf",
    ("DejaVu Sans", True, True): "DejaVuSans-BoldOblique.ttf",
    ("Liberation Serif", False, False): "LiberationSerif-Regular.ttf",
    ("Liberation Serif", True, False): "LiberationSerif-Bold.ttf",
    ("Liberation Serif", False, True): "LiberationSerif-Italic.ttf",
    ("Liberation Serif", True, True): "LiberationSerif-BoldItalic.ttf",
    ("Liberation Sans", False, False): "LiberationSans-Regular.ttf",
    ("Liberation Sans", True, False): "LiberationSans-Bold.ttf",
    ("Liberation Sans", False, True): "LiberationSans-Italic.ttf",
    ("Liberation Sans", True, True): "LiberationSans-BoldItalic.ttf",
    ("Liberation Mono", False, False): "LiberationMono-Regular.ttf",
    ("Liberation Mono", True, False): "LiberationMono-Bold.ttf",
}
FAMILIES = {  # family -> (regular, bold), relative to FONT_ROOT
    "DejaVu Sans": ("dejavu/DejaVuSans.ttf", "dejavu/DejaVuSans-Bold.ttf"),
    "DejaVu Serif": ("dejavu/DejaVuSerif.ttf", "dejavu/DejaVuSerif-Bold.ttf"),
    "Liberation Sans": ("liberation/LiberationSans-Regular.ttf", "liberation/LiberationSans-Bold.ttf"),
    "Liberation Serif": ("liberation/LiberationSerif-Regular.ttf", "liberation/LiberationSerif-Bold.ttf"),
}


@dataclass(frozen=True)
class Face:
    """One installed font file: family name, weight (bold or regular), slant (italic or upright)."""

    family: str
    bold: bool
    italic: bool
    path: str

    def font(self, size: float) -> ImageFont.FreeTypeFont:
        """This face at ``size`` pixels (em size, >= 4; rounded to a quarter pixel)."""
        return _font(self.path, round(max(4.0, size) * 4) / 4)


@lru_cache(maxsize=512)
def _font(path: str, size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def installed_faces() -> list[Face]:
    """The faces of :data:`FACE_FILES` whose file exists, DejaVu Serif regular first (the fallback)."""
    faces = []
    for (family, bold, italic), name in FACE_FILES.items():
        for folder in FONT_DIRS:
            if (folder / name).is_file():
                faces.append(Face(family, bold, italic, str(folder / name)))
                break
    return faces


def family_font(family: str, px: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The regular or bold cut of ``family`` (a key of :data:`FAMILIES`) at ``px`` pixels."""
    return ImageFont.truetype(str(FONT_ROOT / FAMILIES[family][bold]), px)


def dejavu(name: str, px: int) -> ImageFont.FreeTypeFont:
    """The DejaVu file ``name`` (:data:`SANS`, :data:`SERIF_BOLD`, ...) at ``px`` pixels."""
    return ImageFont.truetype(str(DEJAVU / name), px)


def font_file(relative: str, px: int) -> ImageFont.FreeTypeFont:
    """The font file at ``relative`` under :data:`FONT_ROOT` ("liberation/LiberationSans-Bold.ttf") at ``px``."""
    return ImageFont.truetype(str(FONT_ROOT / relative), px)


def dejavu_serif(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Serif (Bold) at ``size`` pixels (serif: OCR tells "AI" from "Al").

    Raises:
        FileNotFoundError: the font file is missing (the message names it and the package to install).
    """
    path = DEJAVU / (SERIF_BOLD if bold else SERIF)
    if not path.exists():
        raise FileNotFoundError(
            f"{path}: DejaVu fonts are needed to re-render the example (apt-get install fonts-dejavu-core)"
        )
    return ImageFont.truetype(str(path), size)
