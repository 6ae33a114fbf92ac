"""The two ways of calling tesseract give the same reads, and the engine is picked as documented
(``rewards.text.ocr.tesseract_engine``)."""

import logging
import os
from pathlib import Path

import pytest
from pages import page

from rewards.text.ocr import tesseract_engine as te
from rewards.text.ocr.ocr_langs import check_ocr_options
from rewards.text.ocr.ocr_read import ocr_lines
from rewards.text.ocr.tesseract_lines import OCRError

HAS_LIBRARY = te.library_version() is not None and te.library_version() == te.command_version()
needs_library = pytest.mark.skipif(
    not HAS_LIBRARY and not os.environ.get("RUBRICLOOP_REQUIRE_FASTOCR"),
    reason="tesserocr built against this tesseract is not installed (scripts/setup.sh builds it)",
)


@pytest.fixture
def engine_env(monkeypatch):
    """Set ``RUBRICLOOP_TESSERACT`` for one test, the engine choice recomputed."""

    def use(value):
        monkeypatch.setenv(te.ENGINE_ENV, value)
        te._engine.cache_clear()

    yield use
    te._engine.cache_clear()


def slide():
    return page(
        [
            ("Q3 Revenue Review", (40, 30), 34, (20, 20, 20)),
            ("Revenue grew 12% to $4.2M", (40, 110), 22, (30, 30, 30)),
            ("EMEA 41%   APAC 27%", (40, 160), 20, (60, 60, 160)),
            ("Prepared by Finance, Oct 2026", (40, 300), 14, (90, 90, 90)),
        ]
    )


@needs_library
@pytest.mark.parametrize("psm", [11, 3, 6, 7])
def test_the_library_gives_the_commands_words_boxes_and_confidences(engine_env, psm):
    im = slide() if psm != 7 else slide().crop((30, 100, 420, 140))  # 7: one line
    engine_env("cli")
    command = te.image_to_data(im, lang="eng", psm=psm)
    engine_env("library")
    library = te.image_to_data(im, lang="eng", psm=psm)
    assert library == command
    words = [w for w in library["text"] if w.strip()]
    assert "Revenue" in words and len(words) >= (5 if psm == 7 else 12)
    assert all(isinstance(c, int) for c in library["conf"])  # truncated as pytesseract does


@needs_library
def test_a_whole_read_is_the_same_with_either_engine(engine_env):
    engine_env("cli")
    command = ocr_lines(slide())
    engine_env("library")
    library = ocr_lines(slide())
    assert library == command
    assert "Q3 Revenue Review" in [ln.text for ln in library]


def test_auto_uses_the_library_only_beside_the_same_command_version(engine_env, monkeypatch, caplog):
    monkeypatch.setattr(te, "library_version", lambda: "5.3.4")
    monkeypatch.setattr(te, "command_version", lambda: "5.3.0")
    engine_env("auto")
    with caplog.at_level(logging.INFO, logger=te.__name__):
        assert te.engine() == "cli"
    assert "tesserocr wraps tesseract 5.3.4, the command is 5.3.0: reading with the command (slower)" in caplog.text
    assert "--no-binary tesserocr" in caplog.text and caplog.records[-1].levelname == "WARNING"
    monkeypatch.setattr(te, "command_version", lambda: "5.3.4")
    engine_env("auto")
    assert te.engine() == "library"
    monkeypatch.setattr(te, "library_version", lambda: None)
    engine_env("auto")
    assert te.engine() == "cli"
    engine_env("library")
    with pytest.raises(te.EngineError, match=r"RUBRICLOOP_TESSERACT=library but tesserocr does not import: pip "):
        te.engine()


def test_the_library_reads_the_commands_language_models():
    """The PyPI wheel's own model folder is "./": the library is given the command's."""
    folder = te.command_tessdata()
    assert folder is not None and (Path(folder) / "eng.traineddata").is_file()


def test_a_bad_engine_name_is_an_option_error_and_each_read_an_ocr_error(engine_env):
    engine_env("fast")
    with pytest.raises(ValueError) as e:
        check_ocr_options("OCRJudge", "eng", 11, 3)
    assert str(e.value) == "OCRJudge: RUBRICLOOP_TESSERACT='fast': expected auto, library or cli"
    with pytest.raises(OCRError, match=r"^tesseract failed: RUBRICLOOP_TESSERACT='fast': expected auto"):
        ocr_lines(slide())


@needs_library
def test_a_missing_language_is_an_ocr_error_with_the_library(engine_env):
    engine_env("library")
    with pytest.raises(OCRError, match=r"^tesseract failed: tesseract could not load language 'zzz'"):
        ocr_lines(slide(), lang="zzz", second_psm=None)
