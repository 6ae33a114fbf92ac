"""scripts/compiler_coverage.py lists the dev half's unresolved locator phrases, normalised, with counts."""

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
_spec = importlib.util.spec_from_file_location("compiler_coverage", ROOT / "scripts" / "compiler_coverage.py")
coverage = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(coverage)


def test_normalised_phrase():
    assert coverage.normalised_phrase("locator 'In panel (a)'") == "in panel (a)"
    assert coverage.normalised_phrase("""locator "In the 'Revenue' tile\"""") == "in Q tile"
    assert coverage.normalised_phrase("locator 'beneath the eleventh bottle'") == "beneath eleventh bottle"


def test_unresolved_phrases_of_the_dev_half(tmp_path, capsys):
    q = 'Does the label beneath the {} bottle read exactly "1915"?'
    rows = [  # default halves: even rows dev, odd rows report (only the dev half is listed)
        {"id": 1, "dimension": "text", "questions": [q.format("eleventh"), q.format("eleventh"), q.format("leftmost")]},
        {"id": 2, "dimension": "text", "questions": [q.format("blue")]},
    ]
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert coverage.main([str(data), "--unresolved", "5", "--json", str(tmp_path / "out.json")]) == 0
    out = capsys.readouterr().out
    assert "3 unresolved locator phrases (2 distinct)" in out
    assert "    2  beneath eleventh bottle" in out and "    1  beneath leftmost bottle" in out and "blue" not in out
    assert json.loads((tmp_path / "out.json").read_text())["unresolved_dev"] == {
        "beneath eleventh bottle": 2,
        "beneath leftmost bottle": 1,
    }


def test_decided_counts_parts_a_page_rule_resolves():
    from rewards.text.questions.question_compiler import compile_question

    assert coverage.decided(compile_question('Does the y-axis show a tick label "0.50"?'))  # page rule
    assert coverage.decided(compile_question('Does the title read exactly "Q3"?'))  # no VLM part
    assert not coverage.decided(compile_question('Does the label beneath the eleventh bottle read exactly "1915"?'))
    assert coverage.has_rule("locator 'In panel (a)'") and not coverage.has_rule("locator 'inside the red bottle'")


def test_blockers_of_undecided_questions():
    from rewards.text.questions.question_compiler import compile_question

    def blocker(q: str) -> str:
        return coverage.blocker(compile_question(q))

    assert blocker('Does the label beneath the eleventh bottle read exactly "1915"?') == "a picture or drawn mark"
    assert blocker('Does the heading inside the lightbulb illustration read exactly "Plan"?') == (
        "a picture or drawn mark"
    )
    assert blocker('Does the heading in the testimonial section read exactly "Reviews"?') == "a description"
    assert blocker('Does each card read exactly "Plan"?') == "a claim no rule reads"
    assert blocker("Does the page show a fully labelled chart?") == "no text part"
