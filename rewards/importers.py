"""Read benchmark and project JSONL files into :class:`rewards.rubric.Item` lists.

Three formats, detected per row by its keys:

- **BizGenEval** (``questions`` + ``easy_qidxs``/``hard_qidxs``; microsoft/BizGenEval
  ``assets/bizgeneval.jsonl``): 20 checks with ids "1".."20", difficulty from the 1-based
  index lists, tag = the item's dimension. In text-dimension items, the quoted strings that
  follow "exactly"/"read"/"label"/"include"/"contain" become text expectations (see
  :func:`text_expectations`).
- **GenExam** (``scoring_points``; OpenGVLab/GenExam ``All_Subjects.jsonl``): one check per
  scoring point, weight = its ``score`` (the weights of an item sum to 1).
- **RubricLoop** (``criteria``): ``{"id", "prompt", "criteria": [{"name", "checks": [{"id",
  "question", "difficulty"?, "weight"?, "gate"?, "tag"?, "expects"?: [{"text", "region"?}]}]}],
  "image"?, "meta"?}``.

Any row may carry a starting image path in ``image``, relative to the JSONL file's folder.
A bad row never stops the others: it becomes a one-line error naming ``file:line`` (and the
item id when one could be read), returned beside the good items.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from rewards.rubric import REGIONS, Check, Criterion, Item, Rubric, RubricError, TextExpectation

_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|(?<![A-Za-z0-9])'(.+?)'(?![A-Za-z0-9])", re.S)
_LIST_GAP = re.compile(r"[\s,;:.]*(?:(?:and|or|then)[\s,;:.]*)?", re.I)
_KEYWORD = re.compile(r"\b(exact(?:ly)?|reads?|reading|includes?|contains?|label(?:ed|led)?|matches)\b", re.I)
# Questions that quote text but ask about something OCR cannot decide (count, style, order...).
_NOT_TEXT_ONLY = re.compile(
    r"\bexactly (?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b|\bhow many\b|"
    r"\b(?:bold|italic|underlined?|colou?r(?:ed)?|font|size|larger|smaller|highlighted|"
    r"order|left to right|top to bottom|followed by|then|aligned|same|match the|each|every|all|"
    r"icon|symbol|arrow|pointing|logo)\b",
    re.I,
)


def text_expectations(question: str) -> tuple[TextExpectation, ...]:
    """The text expectations OCR can decide for a BizGenEval text question, or ``()``.

    Rules (conservative: when in doubt the check is left to a VLM):
    - only quoted strings after the first "exactly"/"read"/"label"/"include"/"contain" count;
      earlier quotes are position references ("directly below \"MENU\"");
    - questions about counts, style, colour or order ("exactly 2 legend entries", "bold") get none;
    - several quoted strings count only as one list ("'A', 'B' and 'C'", one per line); any other
      words between quotes ("'Advice' with values '53'") make the question one for a VLM;
    - single quotes must not touch a letter on the outside, so apostrophes are not quotes.
    - the region is "top" or "bottom" when exactly one of those words occurs in the question,
      otherwise "left"/"right" likewise, otherwise None.
    """
    m = _KEYWORD.search(question)
    if m is None or _NOT_TEXT_ONLY.search(question):
        return ()
    quotes = list(_QUOTED.finditer(question, m.end()))
    if not quotes:
        return ()
    for a, b in zip(quotes, quotes[1:]):
        if not _LIST_GAP.fullmatch(question[a.end():b.start()]):
            return ()  # a quote that is not part of the required list: "'Advice' with values '53'"
    texts = [t.strip() for q in quotes if (t := next(g for g in q.groups() if g is not None)).strip()]
    words = set(re.findall(r"[a-z]+", question.lower()))
    vertical = [r for r in ("top", "bottom") if r in words]
    horizontal = [r for r in ("left", "right") if r in words]
    region = vertical[0] if len(vertical) == 1 else horizontal[0] if len(horizontal) == 1 else None
    return tuple(TextExpectation(t, region) for t in texts)


def _require(row: dict, key: str, typ: type | tuple[type, ...], where: str) -> Any:
    if key not in row:
        raise RubricError(f"{where}: missing field '{key}'")
    value = row[key]
    if not isinstance(value, typ) or isinstance(value, bool) and typ is not bool:
        names = ("a number" if typ == (int, float) else typ.__name__ if isinstance(typ, type)
                 else "/".join(t.__name__ for t in typ))
        raise RubricError(f"{where}: field '{key}' must be {names}, got {type(value).__name__}")
    return value


def _optional(row: dict, key: str, typ: type | tuple[type, ...], default: Any, where: str) -> Any:
    """``row[key]`` checked like ``_require``, or ``default`` when the key is absent."""
    return _require(row, key, typ, where) if key in row else default


def _qidxs(row: dict, key: str, n: int, where: str) -> set[int]:
    idxs = row.get(key) or []
    if not isinstance(idxs, list) or not all(isinstance(i, int) and 1 <= i <= n for i in idxs):
        raise RubricError(f"{where}: field '{key}' must be a list of 1-based question indices <= {n}")
    return set(idxs)


BIZGENEVAL_NAME_KEYS = ("reference_image", "reference image", "image_path", "image", "path")
"""Row keys that name a BizGenEval image, in the official lookup order (evaluation/summarize.py)."""


def parse_bizgeneval(row: dict, where: str) -> Item:
    """One BizGenEval row -> Item (meta keeps domain, dimension, eval_tag, qidxs)."""
    questions = _require(row, "questions", list, where)
    if not all(isinstance(q, str) for q in questions):
        raise RubricError(f"{where}: field 'questions' must be a list of strings")
    dimension = _require(row, "dimension", str, where)
    easy = _qidxs(row, "easy_qidxs", len(questions), where)
    hard = _qidxs(row, "hard_qidxs", len(questions), where)
    checks = []
    for i, q in enumerate(questions, start=1):
        difficulty = "easy" if i in easy else "hard" if i in hard else None
        expects = text_expectations(q) if dimension == "text" else ()
        checks.append(Check(str(i), q, difficulty=difficulty, tag=dimension, expects=expects))
    # The image-name keys are kept raw: the official result file name is derived from them.
    meta = {k: row[k] for k in ("domain", "dimension", "eval_tag", "easy_qidxs", "hard_qidxs", "aspect_ratio", *BIZGENEVAL_NAME_KEYS) if k in row}
    item_id = str(_require(row, "id", (str, int), where))
    return Item(item_id, _require(row, "prompt", str, where), Rubric.flat(checks), source="bizgeneval", meta=meta)


def parse_genexam(row: dict, where: str) -> Item:
    """One GenExam row -> Item; check weights are the scoring points' ``score``."""
    points = _require(row, "scoring_points", list, where)
    checks = []
    for i, p in enumerate(points, start=1):
        pw = f"{where}: scoring_points[{i - 1}]"
        if not isinstance(p, dict):
            raise RubricError(f"{pw} must be an object")
        question = _require(p, "question", str, pw)
        weight = _require(p, "score", (int, float), pw)
        checks.append(Check(str(i), question, weight=float(weight), tag=str(row.get("subject", ""))))
    meta = {k: row[k] for k in ("subject", "taxonomy", "img_type", "difficulty", "image_path") if k in row}
    return Item(str(_require(row, "id", (str, int), where)), _require(row, "prompt", str, where), Rubric.flat(checks), source="genexam", meta=meta)


def parse_rubricloop(row: dict, where: str) -> Item:
    """One row of the project's own rubric format -> Item."""
    criteria = []
    for ci, crit in enumerate(_require(row, "criteria", list, where)):
        cw = f"{where}: criteria[{ci}]"
        if not isinstance(crit, dict):
            raise RubricError(f"{cw} must be an object")
        checks = []
        for ki, chk in enumerate(_require(crit, "checks", list, cw)):
            kw = f"{cw}.checks[{ki}]"
            if not isinstance(chk, dict):
                raise RubricError(f"{kw} must be an object")
            expects = []
            for ei, e in enumerate(chk.get("expects") or []):
                ew = f"{kw}.expects[{ei}]"
                if not isinstance(e, dict):
                    raise RubricError(f"{ew} must be an object")
                region = e.get("region")
                if region is not None and region not in REGIONS:
                    raise RubricError(f"{ew}: field 'region' must be one of {REGIONS} or null, got {region!r}")
                text = _require(e, "text", str, ew)
                if not text.strip():
                    raise RubricError(f"{ew}: field 'text' is empty")
                expects.append(TextExpectation(text, region))
            difficulty = chk.get("difficulty")
            if difficulty not in (None, "easy", "hard"):
                raise RubricError(f"{kw}: field 'difficulty' must be 'easy', 'hard' or null, got {difficulty!r}")
            checks.append(Check(
                id=str(_require(chk, "id", (str, int), kw)),
                question=_require(chk, "question", str, kw),
                difficulty=difficulty,
                weight=float(_optional(chk, "weight", (int, float), 1.0, kw)),
                gate=_optional(chk, "gate", bool, False, kw),
                tag=_optional(chk, "tag", str, "", kw),
                expects=tuple(expects),
            ))
        criteria.append(Criterion(_optional(crit, "name", str, f"criterion {ci + 1}", cw), tuple(checks)))
    ids = [c.id for crit in criteria for c in crit.checks]
    if len(ids) != len(set(ids)):
        raise RubricError(f"{where}: check ids are not unique")
    meta = row.get("meta") or {}
    if not isinstance(meta, dict):
        raise RubricError(f"{where}: field 'meta' must be an object")
    return Item(str(_require(row, "id", (str, int), where)), _require(row, "prompt", str, where), Rubric(tuple(criteria)), meta=dict(meta))


def parse_row(row: Any, where: str, base_dir: Path) -> Item:
    """Detect the row's format, parse it, and resolve its ``image`` against ``base_dir``.

    Raises:
        RubricError: one line naming ``where`` (file:line, plus item id when readable) and the field.
    """
    if not isinstance(row, dict):
        raise RubricError(f"{where}: a row must be a JSON object, got {type(row).__name__}")
    if "id" in row and isinstance(row["id"], (str, int)):
        where = f"{where} (item {row['id']})"
    if "scoring_points" in row:
        item = parse_genexam(row, where)
    elif "questions" in row:
        item = parse_bizgeneval(row, where)
    elif "criteria" in row:
        item = parse_rubricloop(row, where)
    else:
        raise RubricError(f"{where}: unknown row format (expected 'questions', 'scoring_points' or 'criteria')")
    if item.source == "rubricloop" and not item.rubric.checks:  # benchmark rows keep their scorers' own rules
        raise RubricError(f"{where}: the rubric holds no checks")
    if row.get("image") is not None:
        image = _require(row, "image", str, where)
        item.image = (base_dir / image).resolve()
    return item


def load_items(path: str | Path) -> tuple[list[Item], list[str]]:
    """Read a JSONL file of any supported format.

    Returns:
        (items, errors): the rows that parsed, and one error line per row that did not
        (``"<file>:<line> (item <id>): ..."``). Blank lines are skipped.

    Raises:
        RubricError: when the file itself cannot be read, or two rows share an id.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()  # -sig: a leading BOM is not data
    except (OSError, UnicodeDecodeError) as e:
        raise RubricError(f"{path}: cannot read rubric file ({e})") from None
    items, errors, seen = [], [], set()
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise RubricError(f"{where}: malformed JSON ({e.msg} at column {e.colno})") from None
            item = parse_row(row, where, path.parent)
            if item.id in seen:
                raise RubricError(f"{where} (item {item.id}): duplicate item id")
            seen.add(item.id)
            items.append(item)
        except RubricError as e:
            errors.append(str(e))
    return items, errors
