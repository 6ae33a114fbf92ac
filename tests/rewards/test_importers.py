"""Importers: the three row formats, text expectations from BizGenEval questions, bad rows."""

import json
from pathlib import Path

import pytest

from rewards.importers import load_items, text_expectations
from rewards.rubric import RubricError, TextExpectation
from rewards.text.questions.question_compiler import compile_question

SHARED = Path(__file__).resolve().parents[3] / "shared" / "benchmarks"
EXAMPLE = Path(__file__).resolve().parents[2] / "refine" / "example" / "bizgeneval_text.jsonl"


def bizgeneval_source():
    """The benchmark subset beside the repo, or the bundled copy of its text rows in a clean clone."""
    path = SHARED / "bizgeneval" / "bizgeneval_subset.jsonl"
    return path if path.exists() else EXAMPLE


def test_bizgeneval_rows():
    items, errors = load_items(bizgeneval_source())
    assert errors == []
    item = items[0]
    assert item.source == "bizgeneval" and len(item.rubric.checks) == 20
    assert [c.id for c in item.rubric.checks] == [str(i) for i in range(1, 21)]
    row = json.loads(bizgeneval_source().read_text().splitlines()[0])
    easy = {c.id for c in item.rubric.checks if c.difficulty == "easy"}
    assert easy == {str(i) for i in row["easy_qidxs"]}
    assert len(item.rubric.criteria) == 20  # one criterion per check


# Expectations are the compiled question's required strings (rewards.text.questions.question_compiler): they are
# necessary conditions, so a count, style or relation the compiler cannot check no longer empties
# them (the spec then lists that part as VLM-only), and a place of another element ("the top of
# the left panel") is not taken for a place of the image.
@pytest.mark.parametrize(
    "question, expected, decidable",
    [
        (
            "Does the chart title read exactly 'The AI gender imbalance'?",
            [("The AI gender imbalance", None, None, None)],
            True,
        ),
        (
            'Does the single-line subtitle read exactly: "22,582 MW Attributable to CLP Group"?',
            [("22,582 MW Attributable to CLP Group", None, None, None)],
            True,
        ),
        (
            'Does the heading centered at the top of the left panel, directly below the word "MENU", '
            'read exactly "MAIN COURSE"?',
            [("MAIN COURSE", "left", "MENU", "directly_below")],
            False,
        ),  # 'centered at the top of the left panel' places it in another element: a VLM's locator (issue 17)
        (
            'Does the footnote along the bottom read exactly "Note: don\'t round."?',
            [("Note: don't round.", "bottom", None, None)],
            True,
        ),
        (
            'Are there exactly 2 legend entries ("Female" and "Male")?',
            [("Female", None, None, None), ("Male", None, None, None)],
            False,
        ),
        (
            "Is there a bold point label reading exactly 'U.S.'?",
            [("U.S.", None, None, None)],
            True,
        ),  # bold is measured (TextSpec.weight); a generic role (issue 31): 'U.S.' read as a whole element
        ("Does the x-axis show tick labels at 0, 5, 10, 15, and 20?", [], False),
        ("Does the text, from top to bottom, read exactly 'A'?", [("A", None, None, None)], True),
        (
            "Do the column headers read exactly 'Cue', 'App.', 'Prod.', and 'Cov.'?",
            [
                ("Cue", None, None, None),
                ("App.", None, None, None),
                ("Prod.", None, None, None),
                ("Cov.", None, None, None),
            ],
            False,
        ),  # 'the column headers' of which table: a VLM's locator (issue 17)
        (
            "Is there a row labeled exactly 'Advice' with values '53', '30', '24', and '63.6%'?",
            [(t, None, None, None) for t in ("Advice", "53", "30", "24", "63.6%")],
            True,
        ),  # one table row, left to right
        (
            'Does the phrase read exactly "practices\' data" with an apostrophe after the final "s"?',
            [("practices' data", None, None, None)],
            True,
        ),
    ],
)
def test_text_expectations(question, expected, decidable):
    assert text_expectations(question) == tuple(TextExpectation(*e) for e in expected)
    assert compile_question(question).decidable is decidable


def test_genexam_rows_carry_weights():
    path = Path(__file__).parents[1] / "fixtures" / "genexam" / "genexam_rows.jsonl"  # 10 real rows, MIT
    items, errors = load_items(path)
    assert errors == [] and len(items) == 10
    assert sum(c.weight for c in items[0].rubric.checks) == pytest.approx(1.0)
    assert items[0].meta["subject"] == "Biology"


def test_rubricloop_rows_and_bad_rows_each_get_one_line(tmp_path):
    good = {
        "id": "s1",
        "prompt": "slide",
        "image": "img/s1.png",
        "criteria": [
            {
                "name": "title",
                "checks": [{"id": "t", "question": "Title?", "expects": [{"text": "Q3", "region": "top"}]}],
            }
        ],
    }
    lines = [
        json.dumps(good),
        "{not json",
        json.dumps({"id": "s2", "prompt": "p", "criteria": [{"checks": [{"id": "a", "question": 3}]}]}),
        json.dumps(
            {"id": "s3", "prompt": "p", "criteria": [{"checks": [{"id": "a", "question": "q", "weight": "heavy"}]}]}
        ),
        json.dumps(
            {
                "id": "s4",
                "prompt": "p",
                "criteria": [
                    {"checks": [{"id": "a", "question": "q", "expects": [{"text": "x", "region": "middle"}]}]}
                ],
            }
        ),
        json.dumps(["a", "list"]),
        json.dumps({"id": "s5", "prompt": "p", "criteria": [{"checks": [{"id": "a", "question": "q", "gate": "no"}]}]}),
        json.dumps({"id": "s6", "prompt": "p", "criteria": []}),
        "",
        json.dumps(good),
        json.dumps(
            {"id": "s7", "prompt": "p", "criteria": [{"checks": [{"id": "a", "question": "q"}] * 2}, {"checks": []}]}
        ),
    ]
    path = tmp_path / "rubrics.jsonl"
    path.write_text("\n".join(lines))
    items, errors = load_items(path)
    assert [it.id for it in items] == ["s1"]
    assert items[0].image == (tmp_path / "img" / "s1.png").resolve()
    assert items[0].rubric.checks[0].expects == (TextExpectation("Q3", "top"),)
    assert errors[0].startswith(f"{path}:2: malformed JSON")
    assert errors[1] == f"{path}:3 (item s2): criteria[0].checks[0]: field 'question' must be str, got int"
    assert errors[2] == f"{path}:4 (item s3): criteria[0].checks[0]: field 'weight' must be a number, got str"
    assert "field 'region' must be one of" in errors[3] and errors[3].startswith(f"{path}:5 (item s4)")
    assert errors[4] == f"{path}:6: a row must be a JSON object, got list"
    assert errors[5] == f"{path}:7 (item s5): criteria[0].checks[0]: field 'gate' must be bool, got str"
    assert errors[6] == f"{path}:8 (item s6): the rubric holds no checks"
    assert errors[7] == f"{path}:10 (item s1): duplicate item id"
    assert errors[8] == f"{path}:11 (item s7): check id 'a' is not unique"  # names the id (a tester's ask)
    assert all("\n" not in e for e in errors)


def test_bom_is_not_data_and_empty_expected_text_is_an_error(tmp_path):
    path = tmp_path / "bom.jsonl"
    good = {
        "id": "a",
        "prompt": "p",
        "criteria": [{"checks": [{"id": "t", "question": "q", "expects": [{"text": "Q3"}]}]}],
    }
    bad = {
        "id": "b",
        "prompt": "p",
        "criteria": [{"checks": [{"id": "t", "question": "q", "expects": [{"text": " "}]}]}],
    }
    path.write_bytes(("\ufeff" + json.dumps(good) + "\r\n" + json.dumps(bad) + "\r\n").encode("utf-8"))
    items, errors = load_items(path)
    assert [it.id for it in items] == ["a"]
    assert errors == [f"{path}:2 (item b): criteria[0].checks[0].expects[0]: field 'text' is empty"]


def test_unreadable_file_raises_one_line(tmp_path):
    with pytest.raises(RubricError, match="cannot read rubric file"):
        load_items(tmp_path / "nope.jsonl")


def test_rubricloop_row_gives_the_spec(tmp_path):
    spec = {
        "texts": ["MAIN COURSE"],
        "region": "top_left",
        "anchors": [{"text": "MENU", "relation": "directly_below"}],
        "vlm_parts": ["style 'bold'"],
    }
    rows = [
        {"id": "a", "prompt": "p", "criteria": [{"checks": [{"id": "1", "question": "Heading?", "spec": spec}]}]},
        {
            "id": "b",
            "prompt": "p",
            "criteria": [
                {
                    "checks": [
                        {
                            "id": "1",
                            "question": "q",
                            "spec": {"texts": ["x"], "anchors": [{"text": "y", "relation": "near"}]},
                        }
                    ]
                }
            ],
        },
        {
            "id": "c",
            "prompt": "p",
            "criteria": [{"checks": [{"id": "1", "question": 'Is the title "Q3" at the very top?'}]}],
        },
    ]
    path = tmp_path / "own.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    items, errors = load_items(path)
    check = items[0].rubric.checks[0]
    assert check.spec.text.region == "top_left" and check.spec.text.anchors[0].relation == "directly_below"
    assert check.spec.vlm_parts == ("style 'bold'",) and not check.spec.decidable
    assert check.expects == (TextExpectation("MAIN COURSE", "top_left", "MENU", "directly_below"),)
    assert errors == [
        f"{path}:2 (item b): criteria[0].checks[0].spec.anchors[0]: field 'relation' must be one of "
        "('below', 'directly_below', 'above', 'directly_above', 'right_of', 'left_of', 'same_row', 'same_column', "
        "'between', 'context'), got 'near'"
    ]
    compiled = items[1].rubric.checks[0]  # no spec and no expects: the question is compiled
    assert compiled.spec.text.texts == ("Q3",) and compiled.spec.text.region == "very_top"


def test_an_empty_bizgeneval_question_is_named_before_the_index_lists(tmp_path):
    row = {"id": "e", "prompt": "p", "dimension": "text", "questions": [""], "easy_qidxs": [1, 2], "hard_qidxs": []}
    ok = {**row, "id": "ok", "questions": ["Is there a title?", "Is it red?"]}
    path = tmp_path / "biz.jsonl"
    path.write_text(json.dumps(row) + "\n" + json.dumps(ok) + "\n")
    items, errors = load_items(path)
    assert [it.id for it in items] == ["ok"]
    assert errors == [f"{path}:1 (item e): questions[0]: empty question"]


def test_own_row_spec_with_between_weight_and_colour(tmp_path):
    good = {
        "texts": ["Programs"],
        "anchors": [{"text": "About", "relation": "between", "other": "Blog"}],
        "weight": "bold",
        "colour": "white",
    }
    rows = [
        {"id": "a", "prompt": "p", "criteria": [{"checks": [{"id": "1", "question": "Nav?", "spec": good}]}]},
        {
            "id": "b",
            "prompt": "p",
            "criteria": [
                {
                    "checks": [
                        {
                            "id": "1",
                            "question": "q",
                            "spec": {"texts": ["x"], "anchors": [{"text": "y", "relation": "between"}]},
                        }
                    ]
                }
            ],
        },
        {
            "id": "c",
            "prompt": "p",
            "criteria": [{"checks": [{"id": "1", "question": "q", "spec": {"texts": ["x"], "colour": "navy"}}]}],
        },
    ]
    path = tmp_path / "own.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    items, errors = load_items(path)
    text = items[0].rubric.checks[0].spec.text
    assert text.anchors[0].other == "Blog" and text.weight == "bold" and text.colour == "white"
    assert errors[0] == (
        f"{path}:2 (item b): criteria[0].checks[0].spec.anchors[0]: relation 'between' needs field 'other' "
        "(the second anchor's text)"
    )
    assert errors[1].startswith(
        f"{path}:3 (item c): criteria[0].checks[0].spec: field 'colour' must be one of ('white',"
    )


def _unblocking(fifo: Path, call, timeout: float = 10.0):
    """``call()`` in a thread; a reader still blocked on ``fifo`` after ``timeout`` is released (a writer
    opens and closes it: EOF) and the call is reported as a hang instead of hanging the tests."""
    import os
    import threading

    got = {}
    thread = threading.Thread(target=lambda: got.setdefault("result", _catch(call)), daemon=True)
    thread.start()
    thread.join(timeout)
    hung = thread.is_alive()
    if hung:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # a reader waits: this succeeds and frees it
        thread.join(10)
    assert not hung, f"blocked on the FIFO {fifo}"
    return got["result"]


def _catch(call):
    try:
        return call()
    except Exception as e:  # noqa: BLE001 - handed back to the test to assert on
        return e


def test_a_fifo_is_refused_without_opening_it(tmp_path):
    # issue 18: data= naming a FIFO with no writer hung every CLI in open()
    import os

    fifo = tmp_path / "data.jsonl"
    os.mkfifo(fifo)
    got = _unblocking(fifo, lambda: load_items(fifo))
    assert isinstance(got, RubricError)
    assert str(got) == f"{fifo}: cannot read rubric file (not a regular file: a FIFO)"
    got = _unblocking(fifo, lambda: load_items(fifo, limit=2))
    assert isinstance(got, RubricError) and "not a regular file" in str(got)
    with pytest.raises(RubricError) as e:  # the usual reasons stay as they were
        load_items(tmp_path)
    assert str(e.value) == f"{tmp_path}: cannot read rubric file (Is a directory)"
    link = tmp_path / "link.jsonl"  # a link to a regular file is read
    check = {"id": "t", "question": "q", "expects": [{"text": "A"}]}
    row = {"id": "a", "prompt": "p", "criteria": [{"checks": [check]}]}
    (tmp_path / "real.jsonl").write_text(json.dumps(row) + "\n")
    link.symlink_to(tmp_path / "real.jsonl")
    assert [it.id for it in load_items(link)[0]] == ["a"]


def test_load_run_items_with_a_limit_reads_no_further(tmp_path, monkeypatch):
    # issue 18: rubricloop-judge and -refine parsed all 100k rows for limit=2
    import rewards.importers
    from rewards.importers import load_run_items

    row = {"domain": "slides", "dimension": "text", "prompt": "p", "easy_qidxs": [1], "hard_qidxs": [2]}
    path = tmp_path / "big.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for i in range(100_000 - 1):
            f.write(json.dumps({**row, "id": i, "questions": [f"Does it show the word W{i}a?", "Is it blue?"]}) + "\n")
        f.write('{"id": "broken", "questions": [\n')
    compiled = []
    real = rewards.importers.compile_question
    monkeypatch.setattr(rewards.importers, "compile_question", lambda q: compiled.append(q) or real(q))
    items, errors = load_run_items(path, limit=2)
    assert [it.id for it in items] == ["0", "1"] and errors == []
    assert compiled == ["Does it show the word W0a?", "Is it blue?", "Does it show the word W1a?", "Is it blue?"]
    # an empty rubric among the first rows counts as one of them (as rubricloop-eval's limit) and is reported
    empty = tmp_path / "empty.jsonl"
    empty.write_text(
        json.dumps({**row, "id": "e", "questions": [], "easy_qidxs": [], "hard_qidxs": []})
        + "\n"
        + "".join(json.dumps({**row, "id": i, "questions": ["Is it blue?", "Is it red?"]}) + "\n" for i in range(3))
    )
    items, errors = load_run_items(empty, limit=2)
    assert [it.id for it in items] == ["0"] and errors == [f"item e: the rubric holds no checks ({empty})"]
    assert [it.id for it in load_run_items(empty)[0]] == ["0", "1", "2"]


@pytest.mark.parametrize(
    "head, kind",
    [
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "a PNG image"),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 64, "a JPEG image"),
        (b"\x80\x81 not text" * 10, "a binary file (not UTF-8)"),
        (b'{"id": 1}\x00\x00', "a binary file (NUL bytes)"),
    ],
)
def test_a_binary_data_file_is_one_option_error(tmp_path, head, kind):
    """data= naming an image printed one "not UTF-8" or "malformed JSON" line per chunk of it
    (126 for a PNG of the bundled example); now one line says what the file is."""
    from rewards.importers import load_run_items

    path = tmp_path / "page.bin"
    path.write_bytes(head)
    with pytest.raises(ValueError) as e:
        load_run_items(path)
    assert str(e.value) == f"data={path} is {kind}, not a rubric JSONL file"


def test_text_files_are_not_taken_for_binary(tmp_path):
    from rewards.importers import binary_reason

    path = tmp_path / "rows.jsonl"
    path.write_text('{"id": "1", "prompt": "Caf\u00e9 \u00fcber"}\n' * 500, encoding="utf-8")  # a cut character at 4096
    assert binary_reason(path) is None
    assert binary_reason(tmp_path / "missing.jsonl") is None and binary_reason(tmp_path) is None
    # one latin-1 row further down is that row's error, not a binary file (tests/cli/test_bad_inputs.py)
    path.write_bytes(b'{"id": "1"}\n{"id": "Caf\xe9"}\n')
    assert binary_reason(path) is None


def test_a_misspelt_field_or_a_negative_weight_fails_its_row_in_one_line(tmp_path):
    """A tester's rows: each misspelt optional field used to be ignored (the check weighed 1, the
    row judged without its image: "no 'image' field"), and a weight of -1 was taken."""
    q = 'Does the title read exactly "Q3"?'

    def row(rid: str, check: dict | None = None, **fields) -> str:
        return json.dumps(
            {
                "id": rid,
                "prompt": "p",
                "criteria": [{"checks": [{"id": "a", "question": q, **(check or {})}]}],
                **fields,
            }
        )

    lines = [
        row("w", {"wieght": 2}),
        row("i", imgae="x.png"),
        row("n", {"weight": -1}),
        row("e", {"expects": [{"text": "Q3", "regoin": "top"}]}),
        row("s", {"spec": {"texts": ["Q3"], "anchors": [{"text": "A", "relaton": "below"}]}}),
        json.dumps({"id": "c", "prompt": "p", "criterias": []}),
        row("ok", {"weight": 0, "note": "a user's own key, near no field"}),
    ]
    path = tmp_path / "rubrics.jsonl"
    path.write_text("\n".join(lines))
    items, errors = load_items(path)
    assert [(it.id, it.rubric.checks[0].weight) for it in items] == [("ok", 0.0)]
    assert errors == [
        f"{path}:1 (item w): criteria[0].checks[0]: unknown field 'wieght' (did you mean 'weight'?)",
        f"{path}:2 (item i): unknown field 'imgae' (did you mean 'image'?)",
        f"{path}:3 (item n): criteria[0].checks[0]: field 'weight' must be a number >= 0, got -1",
        f"{path}:4 (item e): criteria[0].checks[0].expects[0]: unknown field 'regoin' (did you mean 'region'?)",
        f"{path}:5 (item s): criteria[0].checks[0].spec.anchors[0]: unknown field 'relaton' (did you mean 'relation'?)",
        f"{path}:6 (item c): unknown row format (expected 'questions', 'scoring_points' or 'criteria'; "
        "did you mean 'criteria' for 'criterias'?)",
    ]


def test_a_pretty_printed_json_array_is_one_line_not_an_error_per_line(tmp_path):
    """A tester's rows saved with ``json.dump(rows, f, indent=1)``: 98 "malformed JSON" lines and
    "0 of 98 items finished" before; now one option error."""
    from rewards.importers import load_run_items

    row = {"id": "a", "prompt": "p", "criteria": [{"checks": [{"id": "q", "question": 'Is "X" shown?'}]}]}
    for name, doc, what in (
        ("rows.json", [row, row | {"id": "b"}], "one JSON array of 2 rows"),
        ("row.jsonl", row, "one JSON object spread over several lines"),
    ):
        path = tmp_path / name
        path.write_text(json.dumps(doc, indent=1))
        with pytest.raises(ValueError) as caught:
            load_run_items(path)
        assert str(caught.value) == f"data={path} is {what}, not JSON Lines: write one row object per line"
    one_line_array = tmp_path / "one.jsonl"  # an array on one line is caught too ("a row must be a JSON object")
    one_line_array.write_text(json.dumps([row]) + "\n")
    with pytest.raises(ValueError, match="is one JSON array of 1 row, not JSON Lines"):
        load_run_items(one_line_array)
    csv = tmp_path / "rows.csv"  # not JSON at all: each line is its row's error, as before
    csv.write_text("id,prompt\n1,hello\n")
    items, errors = load_run_items(csv)
    assert items == [] and [e.split(": ", 1)[1] for e in errors] == [
        "malformed JSON (Expecting value at column 1)",
        "malformed JSON (Extra data at column 2)",
    ]


def test_an_image_field_that_is_a_url_empty_or_under_home_is_read_as_a_user_means(tmp_path, monkeypatch):
    """A tester's rows: a URL was "image not found: <folder>/https:/example.com/a.png", an empty
    string "cannot read image <folder> (a folder, not a file)", and "~/a.png" a folder named "~"."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    checks = [{"checks": [{"id": "q", "question": 'Is "X" shown?'}]}]
    rows = [
        {"id": k, "prompt": "p", "image": v, "criteria": checks}
        for k, v in (("u", "https://x.org/a.png"), ("e", " "), ("h", "~/a.png"))
    ]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    items, errors = load_items(path)
    assert [(it.id, it.image) for it in items] == [("h", tmp_path / "home" / "a.png")]
    assert errors == [
        f"{path}:1 (item u): field 'image' is a URL (https://x.org/a.png); give a local file (nothing is downloaded)",
        f"{path}:2 (item e): field 'image' is empty",
    ]
