"""Why OCR cannot read a check's expected string here, in words a person can act on.

``rewards.text.ocr.ocr_langs.unreadable`` gives the characters no installed tesseract model reads;
this module names what is missing for each string, printed as the check gives it (not its
characters de-duplicated, which can look like another word)::

    OCR cannot read 'مرحبا بكم' here: Arabic needs tesseract's ara model, which is not installed
    (apt-get install tesseract-ocr-ara; scripts/setup.sh installs it)
    OCR cannot read '/rɛd/' here: no tesseract model outputs its IPA characters 'ɛ'
"""

from __future__ import annotations

import unicodedata
from typing import Iterable

from rewards.text.ocr.ocr_langs import DEBIAN_PACKS, _model, installed_langs, script_counts, script_of

SCRIPT_NAMES = {"CJK": "Chinese", "HIRAGANA": "Japanese", "KATAKANA": "Japanese", "HANGUL": "Korean"}
"""Unicode script word -> the name a reason uses (others: the word capitalised, "Arabic", "Hebrew")."""


def _missing(text: str, have: set[str]) -> tuple[list[str], str]:
    """(one phrase per script of ``text`` without an installed model, its IPA characters)."""
    counts = script_counts([text])
    phrases: dict[str, str] = {}
    ipa = []
    for ch in dict.fromkeys(unicodedata.normalize("NFKC", text)):
        script = script_of(ch)
        if script is None or script == "LATIN":
            continue
        if script == "IPA":
            ipa.append(ch)
            continue
        model = _model(script, counts)
        name = "Japanese" if model == "jpn" else SCRIPT_NAMES.get(script, script.capitalize())
        if model is None:
            phrases.setdefault(name, f"{name} has no tesseract model")
        elif model not in have:
            phrases.setdefault(
                name,
                f"{name} needs tesseract's {model} model, which is not installed "
                f"(apt-get install {DEBIAN_PACKS[model]}; scripts/setup.sh installs it)",
            )
    return list(phrases.values()), "".join(ipa)


def unreadable_reason(texts: Iterable[str], installed: Iterable[str] | None = None) -> str | None:
    """The withheld reason for a check expecting ``texts`` when OCR cannot read one of them here
    (a script whose model is not installed, IPA characters no model outputs), naming the script
    and quoting the string as given; None when every string is readable.

    Args:
        texts: the strings the check expects.
        installed: available tesseract models (default ``installed_langs()``).
    """
    have = set(installed_langs() if installed is None else installed)
    parts = []
    for text in dict.fromkeys(texts):
        phrases, ipa = _missing(text, have)
        if ipa:
            phrases.append(f"no tesseract model outputs its IPA characters {ipa!r}")
        if phrases:
            parts.append(f"OCR cannot read {text!r} here: {'; '.join(phrases)}")
    return "; ".join(parts) or None
