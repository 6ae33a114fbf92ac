"""Calling tesseract: in this process through tesserocr when it wraps the same tesseract as the
command line, else the ``tesseract`` command through pytesseract.

Every read of the OCR judge and the text editor is one ``image_to_data`` call. The command costs a
process start-up and a model load per call: 0.2 s for a 10x10 image here, which was most of an
incremental refine iteration (one read per changed line strip, issue 22). tesserocr (the
``fastocr`` extra, built against Debian's ``libtesseract-dev``) keeps one loaded engine per
language and thread, and gives the same TSV: on 48 page passes (8 pages, psm 11, 3 and 7, at 1x
and 2x) every word, box and confidence was equal to the command's, for 0.48x its wall time.

Which engine (``RUBRICLOOP_TESSERACT``):

- ``auto`` (default): tesserocr when it imports and its tesseract version is the command's
  (``tesseract --version``); else the command. tesserocr's PyPI wheel bundles its own tesseract
  (5.3.4 where Debian 12 has 5.3.0), whose reads differ in a few words, so ``auto`` does not use
  it beside another command-line version: verdicts stay those of the installed ``tesseract``.
- ``library``: tesserocr whatever its version (fails in one line when it does not import).
- ``cli``: always the command.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import subprocess
import threading

import pytesseract
from PIL import Image

log = logging.getLogger(__name__)

ENGINE_ENV = "RUBRICLOOP_TESSERACT"
"""The environment variable that picks the engine: ``auto`` (default), ``library`` or ``cli``."""

TSV_HEADER = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"
"""The header line of tesseract's TSV output (the command writes it; the library's rows lack it)."""

DEFAULT_DPI = 70
"""Dots per inch the engine assumes for an image without any, as the command does for a PPM or a
PNG without a ``pHYs`` chunk ("Invalid resolution 0 dpi. Using 70 instead")."""


class EngineError(RuntimeError):
    """The tesseract engine could not read an image (missing language, engine crash)."""


def engine() -> str:
    """The engine reads go through: ``"library"`` (tesserocr) or ``"cli"`` (the command).

    Raises:
        EngineError: ``RUBRICLOOP_TESSERACT`` is not ``auto``, ``library`` or ``cli``, or it is
            ``library`` and tesserocr does not import.
    """
    return _engine(os.environ.get(ENGINE_ENV, "auto").strip().lower() or "auto")


@functools.lru_cache(maxsize=4)
def _engine(choice: str) -> str:
    if choice not in ("auto", "library", "cli"):
        raise EngineError(f"{ENGINE_ENV}={choice!r}: expected auto, library or cli")
    if choice == "cli":
        return "cli"
    library = library_version()
    if choice == "library":
        if library is None:
            raise EngineError(
                f"{ENGINE_ENV}=library but tesserocr does not import: "
                "pip install --no-binary tesserocr -e '.[fastocr]' (see scripts/setup.sh)"
            )
        return "library"
    command = command_version()
    if library is not None and library == command:
        return "library"
    if library is not None:
        log.warning(
            "tesserocr wraps tesseract %s, the command is %s: reading with the command (slower); build tesserocr "
            "against the command's tesseract: pip install --force-reinstall --no-binary tesserocr tesserocr==2.8.0",
            library,
            command,
        )
    return "cli"


@functools.lru_cache(maxsize=1)
def library_version() -> str | None:
    """The version of the tesseract tesserocr wraps ("5.3.0"); None when tesserocr does not import."""
    try:
        import tesserocr
    except ImportError:
        return None
    return tesserocr.tesseract_version().split()[1]


@functools.lru_cache(maxsize=1)
def command_version() -> str | None:
    """The version of the ``tesseract`` command (``tesseract --version``); None without one."""
    try:
        out = subprocess.run(["tesseract", "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    words = (out.stdout + out.stderr).split()
    return words[1] if len(words) > 1 and words[0] == "tesseract" else None


@functools.lru_cache(maxsize=1)
def command_tessdata() -> str | None:
    """The folder the ``tesseract`` command reads its language models from (the first line of
    ``tesseract --list-langs``), or None. tesserocr is given it when ``TESSDATA_PREFIX`` is not
    set: the PyPI wheel's own default folder ("./") holds no model."""
    try:
        out = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r'languages in "([^"]+)"', out.stdout + out.stderr)
    return found.group(1) if found else None


_LOCAL = threading.local()


def _api(lang: str):
    """This thread's loaded engine for ``lang`` (loading takes 0.1-0.3 s; a thread keeps its own
    because a tesserocr engine must not be used by two threads at once)."""
    import tesserocr

    apis = getattr(_LOCAL, "apis", None)
    if apis is None:
        apis = _LOCAL.apis = {}
    if lang not in apis:
        try:
            folder = None if os.environ.get("TESSDATA_PREFIX") else command_tessdata()
            apis[lang] = tesserocr.PyTessBaseAPI(lang=lang, **({"path": folder} if folder else {}))
        except RuntimeError as e:
            raise EngineError(f"tesseract could not load language {lang!r}: {e}") from None
    return apis[lang]


def image_to_data(image: Image.Image, lang: str, psm: int) -> dict[str, list]:
    """Tesseract's words of ``image`` in page segmentation mode ``psm``: pytesseract's
    ``image_to_data(..., output_type=Output.DICT)`` (numbers as ints, ``conf`` truncated to an int
    as pytesseract does), through the engine :func:`engine` picks.

    Args:
        image: an RGB or L image (any other mode is converted to RGB by the caller's rules).
        lang: tesseract language(s), "eng" or "eng+chi_sim".
        psm: page segmentation mode.

    Raises:
        EngineError: the library could not load ``lang`` or failed on the image.
        pytesseract.TesseractError, pytesseract.TesseractNotFoundError, OSError: the command failed.
    """
    if engine() == "cli":
        return pytesseract.image_to_data(image, lang=lang, config=f"--psm {psm}", output_type=pytesseract.Output.DICT)
    api = _api(lang)
    api.SetPageSegMode(psm)
    api.SetImage(image)
    api.SetSourceResolution(DEFAULT_DPI)
    if not api.Recognize():
        raise EngineError(f"tesseract could not read a {image.width}x{image.height} image")
    return pytesseract.pytesseract.file_to_dict(TSV_HEADER + "\n" + api.GetTSVText(0), "\t", -1)
