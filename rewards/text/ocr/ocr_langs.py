"""Which tesseract languages read a check's expected text, chosen from the text's scripts.

Tesseract reads only the scripts of the models it is given: with ``eng`` alone, "Выручка"
comes back as "Bbipy4uka" and "Ελληνικά" as "EAAnvika" (measured with tesseract 5.3, DejaVu
Sans 30 px); with ``eng+rus`` / ``eng+ell`` both are exact. So the language string is built
from the scripts of the strings a check expects (``tesseract_lang``), using only the models
installed (Debian packs ``tesseract-ocr-<code>``, see ``DEBIAN_PACKS``; ``scripts/setup.sh``
installs them when missing). The script whose letters are the majority goes first: tesseract
prefers its first model, and an isolated "Δ" among Latin text is read as "A" by ``eng+ell``
(only ``ell+eng`` keeps it, and then reads the Latin "AP50" as Greek capitals).

Characters that no tesseract model outputs (IPA: "ə", "ɛ", "ˈ") or whose script has no
installed model are reported by ``unreadable``: a check that needs them cannot be decided from
OCR, and the judge withholds it rather than answer "no" to a correct image.
"""

from __future__ import annotations

import functools
import unicodedata
from collections import Counter
from typing import Iterable

import pytesseract

from rewards.text.ocr import tesseract_engine

SCRIPT_LANGS = {
    "CJK": "chi_sim",
    "HIRAGANA": "jpn",
    "KATAKANA": "jpn",
    "HANGUL": "kor",
    "CYRILLIC": "rus",
    "GREEK": "ell",
    "ARABIC": "ara",
    "HEBREW": "heb",
    "DEVANAGARI": "hin",
    "THAI": "tha",
}
"""First word of a character's Unicode name -> the tesseract model that reads that script.
Han ideographs go to Simplified Chinese; any kana in the text switches them to Japanese."""

DEBIAN_PACKS = {lang: f"tesseract-ocr-{lang.replace('_', '-')}" for lang in set(SCRIPT_LANGS.values())}
"""Tesseract model -> the Debian package that ships it."""

NO_MODEL_RANGES = ((0x0250, 0x02FF),)
"""Code points (after NFKC) no tesseract model outputs: IPA Extensions and Spacing Modifier Letters."""


def script_of(ch: str) -> str | None:
    """The script of one letter ("LATIN", "CJK", "GREEK", ...), "IPA" for the ranges of
    ``NO_MODEL_RANGES``, or None for digits, punctuation, spaces and symbols."""
    if any(lo <= ord(ch) <= hi for lo, hi in NO_MODEL_RANGES):
        return "IPA"
    if not (ch.isalpha() or unicodedata.category(ch) == "Lo"):
        return None
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else None


def script_counts(texts: Iterable[str]) -> Counter:
    """Letters per script over ``texts`` (NFKC-normalised first, as the matcher does)."""
    counts: Counter = Counter()
    for text in texts:
        for ch in unicodedata.normalize("NFKC", text):
            script = script_of(ch)
            if script is not None:
                counts[script] += 1
    return counts


@functools.lru_cache(maxsize=1)
def installed_langs() -> frozenset[str]:
    """The tesseract models installed here (``tesseract --list-langs``); empty when tesseract is missing."""
    try:
        return frozenset(pytesseract.get_languages(config=""))
    except (pytesseract.TesseractError, pytesseract.TesseractNotFoundError, OSError, RuntimeError):
        return frozenset()


READING_PSMS = (1, *range(3, 14))
"""Tesseract's page segmentation modes that read text (``tesseract --help-psm``): 0 only
detects orientation and script, 2 segments without reading; neither gives a word."""


def check_ocr_options(who: str, lang, psm, second_psm=None) -> None:
    """Refuse, in one line naming the option, tesseract settings that would fail or read nothing
    on every image: called when a judge or editor is built, so a bad option is an option error
    before the first item, not a failure of each.

    Args:
        who: the component named in the message ("OCRJudge", "TextEditor").
        lang: tesseract language codes joined by "+" ("eng+chi_sim"); each must be installed
            (``tesseract --list-langs``; not checked when tesseract itself is missing) and not
            ``osd`` (orientation and script detection, not a language).
        psm, second_psm: page segmentation modes in :data:`READING_PSMS` (``second_psm`` may be None).

    Raises:
        ValueError: one line naming the option and the value.
    """
    try:
        tesseract_engine.engine()
    except tesseract_engine.EngineError as e:
        raise ValueError(f"{who}: {e}") from None
    modes = "a tesseract page segmentation mode that reads text, 1, 3..13 (0 and 2 read no text)"
    for name, v in (("psm", psm), ("second_psm", second_psm)):
        if v is None and name == "second_psm":
            continue
        if isinstance(v, bool) or not isinstance(v, int) or v not in READING_PSMS:
            tail = " or null" if name == "second_psm" else ""
            raise ValueError(f"{who}: {name} must be {modes}{tail}; got {v!r}")
    codes = lang.split("+") if isinstance(lang, str) else []
    if not codes or not all(codes):
        raise ValueError(f"{who}: lang must be tesseract language codes joined by '+' (eng+chi_sim), got {lang!r}")
    if "osd" in codes:
        raise ValueError(f"{who}: lang={lang!r}: 'osd' detects orientation and script, it reads no text")
    installed = installed_langs()
    missing = [c for c in codes if installed and c not in installed]
    if missing:
        raise ValueError(
            f"{who}: lang={lang!r}: {missing[0]!r} is not installed in tesseract "
            f"(installed: {'+'.join(sorted(installed - {'osd'}))}; tesseract --list-langs)"
        )


def _model(script: str, counts: Counter) -> str | None:
    if script == "CJK" and (counts["HIRAGANA"] or counts["KATAKANA"]):
        return "jpn"
    return SCRIPT_LANGS.get(script)


def tesseract_lang(texts: Iterable[str], base: str = "eng", installed: Iterable[str] | None = None) -> str:
    """The tesseract language string for reading ``texts``.

    Args:
        texts: the strings a check (or an image's checks) expects.
        base: the configured language(s), e.g. "eng"; kept in the result.
        installed: available models (default ``installed_langs()``); models not installed are left out.

    Returns:
        ``base`` plus the models of the non-Latin scripts in ``texts``, joined by "+", the
        script with the most letters first: "chi_sim+eng" for "红色 red 红色", "eng+rus" for
        "Revenue Выручка and more". ``base`` alone when every letter is Latin.
    """
    texts = list(texts)
    counts = script_counts(texts)
    have = set(installed_langs() if installed is None else installed)
    base_langs = [b for b in base.split("+") if b]
    extra: dict[str, int] = {}
    for script, n in counts.items():
        model = _model(script, counts)
        if model and model in have and model not in base_langs:
            extra[model] = extra.get(model, 0) + n
    if not extra:
        return base
    latin = counts["LATIN"]
    ranked = sorted(extra, key=lambda m: -extra[m])
    head = [m for m in ranked if extra[m] > latin]
    return "+".join(head + base_langs + [m for m in ranked if m not in head])


def unreadable(text: str, installed: Iterable[str] | None = None) -> str:
    """The characters of ``text`` OCR cannot read here: IPA and modifier letters (no tesseract
    model has them) and letters of scripts whose model is not installed. "" when all are readable."""
    counts = script_counts([text])
    have = set(installed_langs() if installed is None else installed)
    out = []
    for ch in dict.fromkeys(unicodedata.normalize("NFKC", text)):
        script = script_of(ch)
        if script is None or script == "LATIN":
            continue
        model = _model(script, counts)
        if script == "IPA" or model is None or model not in have:
            out.append(ch)
    return "".join(out)
