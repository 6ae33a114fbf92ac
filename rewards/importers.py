"""Read benchmark and project JSONL files into :class:`rewards.rubric.Item` lists.

Three formats, detected per row by its keys:

- **BizGenEval** (``questions`` + ``easy_qidxs``/``hard_qidxs``; microsoft/BizGenEval
  ``assets/bizgeneval.jsonl``): 20 checks with ids "1".."20", difficulty from the 1-based
  index lists, tag = the item's dimension. Every question is compiled
  (``rewards.text.questions.question_compiler``): its code-decidable part becomes ``Check.spec`` and its
  required strings ``Check.expects``.
- **GenExam** (``scoring_points``; OpenGVLab/GenExam ``All_Subjects.jsonl``): one check per
  scoring point, weight = its ``score`` (the weights of an item sum to 1).
- **RubricLoop** (``criteria``): ``{"id", "prompt", "criteria": [{"name", "checks": [{"id",
  "question", "difficulty"?, "weight"?, "gate"?, "tag"?, "expects"?: [{"text", "region"?}],
  "spec"?: {...} (see :func:`parse_spec`)}]}], "image"?, "meta"?}``. A check with ``spec`` is
  decided by it; with only ``expects``, by those; with neither, its question is compiled.

Any row may carry a starting image path in ``image``, relative to the JSONL file's folder.
A bad row never stops the others: it becomes a one-line error naming ``file:line`` (and the
item id when one could be read), returned beside the good items.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from rewards.common.files import file_kind
from rewards.common.one_line import one_line
from rewards.rubric import REGIONS, Check, Criterion, Item, Rubric, RubricError, TextExpectation
from rewards.text.questions.question_compiler import (
    ARRANGEMENTS,
    COLOURS,
    RELATIONS,
    WEIGHTS,
    Anchor,
    QuestionSpec,
    TextSpec,
    compile_question,
    form_of,
)


def text_expectations(question: str) -> tuple[TextExpectation, ...]:
    """The text expectations of a question: one per required string of its compiled text part
    (``rewards.text.questions.question_compiler.compile_question``), carrying the place and the first anchor, or
    ``()`` when nothing of the question is code-decidable. They are necessary conditions: the
    compiled spec (``Check.spec``) says whether they also suffice."""
    return expectations_of(compile_question(question))


def expectations_of(spec: QuestionSpec | None) -> tuple[TextExpectation, ...]:
    """``TextExpectation``s for the required strings of ``spec`` (``()`` without a text part)."""
    if spec is None or spec.text is None:
        return ()
    anchor = spec.text.anchors[0] if spec.text.anchors else None
    return tuple(
        TextExpectation(t, spec.text.region, anchor.text if anchor else None, anchor.relation if anchor else None)
        for t in dict.fromkeys(spec.text.texts)
    )


def parse_spec(raw: Any, where: str) -> QuestionSpec:
    """A spec given by a RubricLoop row: ``{"texts": [str, ...], "arrangement"?, "count"?, "region"?,
    "anchors"?: [{"text", "relation", "other"?}], "in_box"?, "weight"?, "colour"?, "vlm_parts"?: [str, ...]}``
    (see ``rewards.text.questions.question_compiler.TextSpec``; "other" is the second anchor of "between").

    Raises:
        RubricError: a field is missing or has a bad value (one line naming ``where``).
    """
    if not isinstance(raw, dict):
        raise RubricError(f"{where} must be an object")
    _no_misspelt_fields(raw, SPEC_FIELDS, where)
    texts = _require(raw, "texts", list, where)
    if not texts or not all(isinstance(t, str) and t.strip() for t in texts):
        raise RubricError(f"{where}: field 'texts' must be a non-empty list of non-empty strings")
    arrangement = _optional(raw, "arrangement", str, "all", where)
    if arrangement not in ARRANGEMENTS:
        raise RubricError(f"{where}: field 'arrangement' must be one of {ARRANGEMENTS}, got {arrangement!r}")
    count = raw.get("count")
    if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count < 0):
        raise RubricError(f"{where}: field 'count' must be a non-negative integer or null, got {count!r}")
    region = raw.get("region")
    if region is not None and region not in REGIONS:
        raise RubricError(f"{where}: field 'region' must be one of {REGIONS} or null, got {region!r}")
    anchors = []
    for ai, a in enumerate(_optional(raw, "anchors", list, [], where)):
        aw = f"{where}.anchors[{ai}]"
        if not isinstance(a, dict):
            raise RubricError(f"{aw} must be an object")
        _no_misspelt_fields(a, ANCHOR_FIELDS, aw)
        relation = _require(a, "relation", str, aw)
        if relation not in RELATIONS:
            raise RubricError(f"{aw}: field 'relation' must be one of {RELATIONS}, got {relation!r}")
        other = _optional(a, "other", str, None, aw) if relation == "between" else None
        if relation == "between" and other is None:
            raise RubricError(f"{aw}: relation 'between' needs field 'other' (the second anchor's text)")
        anchors.append(Anchor(_require(a, "text", str, aw), relation, other))
    weight, colour = raw.get("weight"), raw.get("colour")
    if weight is not None and weight not in WEIGHTS:
        raise RubricError(f"{where}: field 'weight' must be one of {WEIGHTS} or null, got {weight!r}")
    if colour is not None and colour not in COLOURS:
        raise RubricError(f"{where}: field 'colour' must be one of {COLOURS} or null, got {colour!r}")
    vlm_parts = _optional(raw, "vlm_parts", list, [], where)
    if not all(isinstance(v, str) for v in vlm_parts):
        raise RubricError(f"{where}: field 'vlm_parts' must be a list of strings")
    text = TextSpec(
        tuple(texts),
        arrangement,
        count,
        region,
        tuple(anchors),
        _optional(raw, "in_box", bool, False, where),
        weight,
        colour,
    )
    return QuestionSpec(form_of(text), text, tuple(vlm_parts))


def _require(row: dict, key: str, typ: type | tuple[type, ...], where: str) -> Any:
    if key not in row:
        raise RubricError(f"{where}: missing field '{key}'")
    value = row[key]
    if not isinstance(value, typ) or isinstance(value, bool) and typ is not bool:
        names = (
            "a number"
            if typ == (int, float)
            else typ.__name__
            if isinstance(typ, type)
            else "/".join(t.__name__ for t in typ)
        )
        raise RubricError(f"{where}: field '{key}' must be {names}, got {type(value).__name__}")
    return value


def _optional(row: dict, key: str, typ: type | tuple[type, ...], default: Any, where: str) -> Any:
    """``row[key]`` checked like ``_require``, or ``default`` when the key is absent."""
    return _require(row, key, typ, where) if key in row else default


ROW_FORMATS = ("questions", "scoring_points", "criteria")
"""The key that tells a row's format: BizGenEval, GenExam, RubricLoop."""
ROW_FIELDS = ("id", "prompt", "image", "criteria", "meta")
CRITERION_FIELDS = ("name", "checks")
CHECK_FIELDS = ("id", "question", "difficulty", "weight", "gate", "tag", "expects", "spec")
EXPECT_FIELDS = ("text", "region")
SPEC_FIELDS = ("texts", "arrangement", "count", "region", "anchors", "in_box", "weight", "colour", "vlm_parts")
ANCHOR_FIELDS = ("text", "relation", "other")
"""The fields of a RubricLoop row and of its parts (module docstring)."""


def _no_misspelt_fields(obj: dict, known: tuple[str, ...], where: str) -> None:
    """Refuse a key of ``obj`` that is none of ``known`` but close to one (``"wieght"``, ``"imgae"``):
    a misspelt optional field would be silently ignored (the check weighed 1, the row judged
    without its image). Keys far from every field (a note of the user's) stay allowed.

    Raises:
        RubricError: ``"<where>: unknown field 'wieght' (did you mean 'weight'?)"``.
    """
    for key in obj:
        if key not in known:
            near = difflib.get_close_matches(str(key), known, n=1, cutoff=0.75)
            if near:
                raise RubricError(f"{where}: unknown field {key!r} (did you mean {near[0]!r}?)")


def _check_weight(chk: dict, where: str) -> float:
    """A RubricLoop check's ``weight`` (default 1): a number >= 0 (a negative weight would turn
    a failed check into a gain in the weighted scores).

    Raises:
        RubricError: ``"<where>: field 'weight' must be a number >= 0, got -1"``.
    """
    weight = _optional(chk, "weight", (int, float), 1.0, where)
    if isinstance(weight, bool) or weight < 0:
        raise RubricError(f"{where}: field 'weight' must be a number >= 0, got {weight!r}")
    return float(weight)


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
    for i, q in enumerate(questions):  # before the index lists: an empty question is the row's real fault
        if not q.strip():
            raise RubricError(f"{where}: questions[{i}]: empty question")
    dimension = _require(row, "dimension", str, where)
    easy = _qidxs(row, "easy_qidxs", len(questions), where)
    hard = _qidxs(row, "hard_qidxs", len(questions), where)
    checks = []
    for i, q in enumerate(questions, start=1):
        difficulty = "easy" if i in easy else "hard" if i in hard else None
        spec = compile_question(q)
        checks.append(Check(str(i), q, difficulty=difficulty, tag=dimension, expects=expectations_of(spec), spec=spec))
    # The image-name keys are kept raw: the official result file name is derived from them.
    meta = {
        k: row[k]
        for k in ("domain", "dimension", "eval_tag", "easy_qidxs", "hard_qidxs", "aspect_ratio", *BIZGENEVAL_NAME_KEYS)
        if k in row
    }
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
        spec = compile_question(question)
        checks.append(
            Check(
                str(i),
                question,
                weight=float(weight),
                tag=str(row.get("subject", "")),
                expects=expectations_of(spec),
                spec=spec,
            )
        )
    meta = {k: row[k] for k in ("subject", "taxonomy", "img_type", "difficulty", "image_path") if k in row}
    return Item(
        str(_require(row, "id", (str, int), where)),
        _require(row, "prompt", str, where),
        Rubric.flat(checks),
        source="genexam",
        meta=meta,
    )


def parse_rubricloop(row: dict, where: str) -> Item:
    """One row of the project's own rubric format -> Item."""
    _no_misspelt_fields(row, ROW_FIELDS, where)
    criteria = []
    for ci, crit in enumerate(_require(row, "criteria", list, where)):
        cw = f"{where}: criteria[{ci}]"
        if not isinstance(crit, dict):
            raise RubricError(f"{cw} must be an object")
        _no_misspelt_fields(crit, CRITERION_FIELDS, cw)
        checks = []
        for ki, chk in enumerate(_require(crit, "checks", list, cw)):
            kw = f"{cw}.checks[{ki}]"
            if not isinstance(chk, dict):
                raise RubricError(f"{kw} must be an object")
            _no_misspelt_fields(chk, CHECK_FIELDS, kw)
            expects = []
            for ei, e in enumerate(chk.get("expects") or []):
                ew = f"{kw}.expects[{ei}]"
                if not isinstance(e, dict):
                    raise RubricError(f"{ew} must be an object")
                _no_misspelt_fields(e, EXPECT_FIELDS, ew)
                region = e.get("region")
                if region is not None and region not in REGIONS:
                    raise RubricError(f"{ew}: field 'region' must be one of {REGIONS} or null, got {region!r}")
                text = _require(e, "text", str, ew)
                if not text.strip():
                    raise RubricError(f"{ew}: field 'text' is empty")
                expects.append(TextExpectation(text, region))
            question = _require(chk, "question", str, kw)
            if chk.get("spec") is not None:  # the row gives the spec: no compiling
                spec = parse_spec(chk["spec"], f"{kw}.spec")
                expects = expects or list(expectations_of(spec))
            elif expects:  # only expectations: every one must hold, nothing else is asked
                spec = None
            else:
                spec = compile_question(question)
                expects = list(expectations_of(spec))
            difficulty = chk.get("difficulty")
            if difficulty not in (None, "easy", "hard"):
                raise RubricError(f"{kw}: field 'difficulty' must be 'easy', 'hard' or null, got {difficulty!r}")
            checks.append(
                Check(
                    id=str(_require(chk, "id", (str, int), kw)),
                    question=question,
                    difficulty=difficulty,
                    weight=_check_weight(chk, kw),
                    gate=_optional(chk, "gate", bool, False, kw),
                    tag=_optional(chk, "tag", str, "", kw),
                    expects=tuple(expects),
                    spec=spec,
                )
            )
        criteria.append(Criterion(_optional(crit, "name", str, f"criterion {ci + 1}", cw), tuple(checks)))
    ids = [c.id for crit in criteria for c in crit.checks]
    if len(ids) != len(set(ids)):
        dup = next(i for k, i in enumerate(ids) if i in ids[:k])
        raise RubricError(f"{where}: check id {dup!r} is not unique")
    meta = row.get("meta") or {}
    if not isinstance(meta, dict):
        raise RubricError(f"{where}: field 'meta' must be an object")
    return Item(
        str(_require(row, "id", (str, int), where)),
        _require(row, "prompt", str, where),
        Rubric(tuple(criteria)),
        meta=dict(meta),
    )


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
        near = [(k, m[0]) for k in map(str, row) if (m := difflib.get_close_matches(k, ROW_FORMATS, 1, 0.75))]
        hint = f"; did you mean {near[0][1]!r} for {near[0][0]!r}?" if near else ""
        raise RubricError(f"{where}: unknown row format (expected 'questions', 'scoring_points' or 'criteria'{hint})")
    if item.source == "rubricloop" and not item.rubric.checks:  # benchmark rows keep their scorers' own rules
        raise RubricError(f"{where}: the rubric holds no checks")
    if row.get("image") is not None:
        image = _require(row, "image", str, where)
        if not image.strip():
            raise RubricError(f"{where}: field 'image' is empty")
        if _URL.match(image):
            raise RubricError(f"{where}: field 'image' is a URL ({image}); give a local file (nothing is downloaded)")
        item.image = (base_dir / Path(image).expanduser()).resolve()  # "~/pages/a.png" as a shell reads it
    return item


_URL = re.compile(r"[a-z][a-z0-9+.-]*://", re.IGNORECASE)
"""A URL scheme at the start of a row's ``image`` (``https://``, ``s3://``, ``file://``)."""


def load_items(path: str | Path, limit: int | None = None) -> tuple[list[Item], list[str]]:
    """Read a JSONL file of any supported format, one row per line.

    Lines are read (streamed) as bytes and decoded one by one, so a row that is not UTF-8 (or is
    bad JSON, nests too deep, holds NaN/Infinity or a lone UTF-16 surrogate, or fails to parse)
    fails alone. A UTF-8 BOM before the first row and ``\r\n`` line ends are accepted.

    Args:
        path: the JSONL file.
        limit: stop reading once this many items have parsed (``rubricloop-eval limit=2`` on a
            100k-row file reads and compiles two rows, not all); rows after them are not read,
            so their errors are not reported. None reads the whole file.

    Returns:
        (items, errors): the rows that parsed, and one error line per row that did not
        (``"<file>:<line> (item <id>): ..."``, e.g. ``"<file>:3: not UTF-8 (...)"`` or
        ``"... duplicate item id"``). Blank lines are skipped.

    Raises:
        RubricError: when the file itself cannot be opened or read, or is not a regular file (a
            FIFO, a socket, a device: refused without opening it, as a FIFO with no writer would
            block the read for ever).
    """
    path = Path(path)
    items, errors, seen = [], [], set()
    try:
        _require_regular_file(path)
        with open(path, "rb") as f:
            for n, raw in enumerate(f, start=1):
                if limit is not None and len(items) >= limit:
                    break
                raw = raw[:-1] if raw.endswith(b"\n") else raw
                if n == 1 and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]  # a leading BOM is not data
                where = f"{path}:{n}"
                try:
                    item = _read_row(raw, where, path.parent)
                    if item is None:
                        continue
                    if item.id in seen:
                        raise RubricError(f"{where} (item {item.id}): duplicate item id")
                    seen.add(item.id)
                    items.append(item)
                except RubricError as e:
                    errors.append(one_line(str(e)))
    except OSError as e:
        raise RubricError(f"{path}: cannot read rubric file ({e.strerror or e})") from None
    return items, errors


def _require_regular_file(path: Path) -> None:
    """Refuse, without opening it, a ``path`` that is not a regular file (links followed): opening a
    FIFO with no writer blocks for ever, a device may never end.

    Raises:
        OSError: a missing file or folder (as ``open`` would: "No such file or directory", "Is a directory").
        RubricError: ``"<path>: cannot read rubric file (not a regular file: a FIFO)"`` and the like.
    """
    mode = os.stat(path).st_mode
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(21, os.strerror(21), str(path))
    if not stat.S_ISREG(mode):
        kind = file_kind(mode, "another kind of file")
        raise RubricError(f"{path}: cannot read rubric file (not a regular file: {kind})")


def _reject_constant(name: str) -> None:
    raise RubricError(f"{name} is not a JSON value")


def _read_row(raw: bytes, where: str, base_dir: Path) -> Item | None:
    """One JSONL line (bytes, no newline) -> Item, or None for a blank line.

    Raises:
        RubricError: one line starting with ``where``.
    """
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RubricError(f"{where}: not UTF-8 (byte 0x{raw[e.start]:02x} at byte {e.start + 1} of the line)") from None
    if not line.strip():
        return None
    try:
        row = json.loads(line, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise RubricError(f"{where}: malformed JSON ({e.msg} at column {e.colno})") from None
    except RubricError as e:
        raise RubricError(f"{where}: malformed JSON ({e})") from None
    except RecursionError:
        raise RubricError(f"{where}: malformed JSON (nested too deeply)") from None
    except ValueError as e:  # e.g. an integer literal over Python's digit limit
        raise RubricError(f"{where}: malformed JSON ({' '.join(str(e).split())[:120]})") from None
    try:
        json.dumps(row, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise RubricError(
            f"{where}: a string holds a lone UTF-16 surrogate (\\ud800-\\udfff escape), not text"
        ) from None
    try:
        item = parse_row(row, where, base_dir)
    except RubricError:
        raise
    except (ValueError, TypeError, OverflowError, RecursionError) as e:  # a value no parser foresaw
        raise RubricError(f"{where}: cannot read row ({type(e).__name__}: {' '.join(str(e).split())[:160]})") from None
    try:
        item.rubric.require_questions()
    except RubricError as e:
        raise RubricError(f"{where} (item {item.id}): {e}") from None
    return item


def split_empty_rubrics(items: list[Item], path: str | Path) -> tuple[list[Item], list[str]]:
    """(items with at least one check, one error line per item without any).

    A BizGenEval row with ``"questions": []`` loads (the official summarize skips it when
    scoring), but judging or refining it would pass every check vacuously and count 1.0 into a
    run's mean, so ``rubricloop-refine`` and ``rubricloop-judge`` refuse it: ``"item <id>: the
    rubric holds no checks (<file>)"``, like the other per-item failures.
    """
    kept = [it for it in items if it.rubric.checks]
    errors = [f"item {it.id}: the rubric holds no checks ({path})" for it in items if not it.rubric.checks]
    return kept, errors


BINARY_SIGNATURES = {
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
    b"%PDF": "a PDF",
    b"PK\x03\x04": "a zip archive",
}


def binary_reason(path: Path, probe: int = 4096) -> str | None:
    """What kind of binary file ``path`` is ("a PNG image", "a binary file"), or None when it could
    be a text file: it starts with no known binary signature and its first line (within the first
    ``probe`` bytes) is UTF-8 without NUL bytes. A text file with a bad line further down is text:
    that line gets its own error and the other rows are read. None too when it cannot be opened as
    a regular file (the caller's reader says why)."""
    import codecs

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as f:
            head = f.read(probe)
    except OSError:
        return None
    for signature, kind in BINARY_SIGNATURES.items():
        if head.startswith(signature):
            return kind
    first_line = head.split(b"\n", 1)[0]
    try:
        codecs.getincrementaldecoder("utf-8")().decode(first_line, final=b"\n" in head)
    except UnicodeDecodeError:
        return "a binary file (not UTF-8)"
    return "a binary file (NUL bytes)" if b"\0" in first_line else None


def load_run_items(data: Path, limit: int | None = None) -> tuple[list[Item], list[str]]:
    """The items a judging run (``rubricloop-refine``, ``rubricloop-judge``) takes from ``data``:
    :func:`load_items`, then :func:`split_empty_rubrics`. ``limit``: read only the first that many
    items (rows that parse, an empty rubric among them, as ``rubricloop-eval limit=``); rows after
    them are never read, so a 100k-row file with ``limit=2`` compiles two rows.

    Returns:
        (items with at least one check, one error line per bad row or empty rubric).

    Raises:
        ValueError: an option error, in one line: ``data=<path>: cannot read rubric file
            (<reason>)`` when ``data`` names no readable file, ``data=<path> is a PNG image, not a
            rubric JSONL file`` for a binary file (:func:`binary_reason`), ``data=<path> holds no
            items`` when it holds neither items nor bad rows.
    """
    binary = binary_reason(data)
    if binary is not None:  # one line, not one "not UTF-8" line per chunk of an image
        raise ValueError(f"data={data} is {binary}, not a rubric JSONL file")
    try:
        items, errors = load_items(data, limit)
    except RubricError as e:  # e: "<path>: cannot read rubric file (<reason>)"
        raise ValueError(f"data={e}") from None
    items, empty = split_empty_rubrics(items, data)
    errors += empty
    if not items and not errors:
        raise ValueError(f"data={data} holds no items")
    document = json_document_reason(data) if not items else None
    if document is not None:
        raise ValueError(f"data={data} is {document}, not JSON Lines: write one row object per line")
    return items, errors


JSON_DOCUMENT_LIMIT = 64 * 2**20
"""The largest file :func:`json_document_reason` parses whole (bytes)."""


def json_document_reason(path: Path) -> str | None:
    """``"one JSON array of 2 rows"`` (or ``"one JSON object"``) when ``path`` holds a single
    pretty-printed JSON document rather than JSON Lines (``json.dump(rows, f, indent=1)``: every
    line of it fails as a row, one error line each); else None. Files over
    ``JSON_DOCUMENT_LIMIT`` bytes, or that do not parse whole, are None."""
    try:
        if path.stat().st_size > JSON_DOCUMENT_LIMIT:
            return None
        doc = json.loads(path.read_bytes().decode("utf-8-sig"))
    except (OSError, ValueError):
        return None
    if isinstance(doc, list):
        return f"one JSON array of {len(doc)} row{'' if len(doc) == 1 else 's'}"
    return "one JSON object spread over several lines" if isinstance(doc, dict) else None
