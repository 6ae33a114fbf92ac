"""One verdict record (issue 21): ``rubricloop-judge``, ``rubricloop-refine`` and ``rubricloop-eval``
write the same fields for the same item (``rewards.rubric.verdict_record``), and readers still take
the ``check_id`` of refine lines written before it."""

from __future__ import annotations

import json

import pytest
from hydra import compose, initialize_config_module
from refine_rows import text_page, text_row, write_rows

from rewards.rubric import RECORD_FIELDS, record_verdict


@pytest.fixture(autouse=True)
def _no_wandb(monkeypatch):
    monkeypatch.setenv("WANDB_MODE", "disabled")


def lines(path):
    return [json.loads(ln) for ln in path.read_text().splitlines()]


def test_judge_refine_and_eval_write_the_same_record_for_the_same_item(tmp_path):
    from evaluation.cli import run as eval_run
    from evaluation.judge_cli import run as judge_run
    from refine.cli import run as refine_run

    text_page("Net Profit").save(tmp_path / "p.png")
    row = text_row("p", "p.png", "Net Profit", [{"id": "u", "question": "Does it read 'Road Map'?"}])
    data = write_rows(tmp_path, [row])
    with initialize_config_module("conf", version_base="1.3"):
        assert judge_run(compose("judge_run", overrides=[f"data={data}", f"out={tmp_path / 'j'}"])) == 0
        refine = compose("refine", overrides=[f"data={data}", f"out={tmp_path / 'r'}", "iterations=0"])
        assert refine_run(refine) == 0
        evaluate = compose(
            "eval", overrides=[f"data={data}", f"images={tmp_path}", f"out={tmp_path / 'e'}", "report=false"]
        )
        assert eval_run(evaluate) == 0
    judged, refined, evaluated = (
        lines(tmp_path / "j" / "verdicts.jsonl"),
        lines(tmp_path / "r" / "p" / "verdicts.jsonl"),
        lines(tmp_path / "e" / "verdicts.jsonl"),
    )
    # the shared fields in the shared order, then each command's own: refine's iteration, the fingerprints
    assert [list(ln) for ln in judged] == [[*RECORD_FIELDS, "fingerprint"]] * 2
    assert [list(ln) for ln in evaluated] == [[*RECORD_FIELDS, "fingerprint", "image"]] * 2  # eval: the file judged
    assert {ln["image"] for ln in evaluated} == {str(tmp_path / "p.png")}
    assert [list(ln) for ln in refined] == [["iteration", *RECORD_FIELDS]] * 2
    shared = [{k: ln[k] for k in RECORD_FIELDS} for ln in judged]
    assert [{k: ln[k] for k in RECORD_FIELDS} for ln in refined] == shared
    assert [{k: ln[k] for k in RECORD_FIELDS} for ln in evaluated] == shared
    assert [(ln["item_id"], ln["check"], ln["answer"], ln["form"]) for ln in judged] == [
        ("p", "t", "yes", "expects"),
        ("p", "u", "no", "exact"),
    ]
    assert judged[1]["question"] == "Does it read 'Road Map'?" and judged[1]["p_yes"] is None


def test_an_older_refine_line_with_check_id_still_reads():
    old = {"iteration": 0, "check_id": "t", "answer": "no", "judge": "ocr", "reason": "read 'X'", "evidence": None}
    v = record_verdict(old)
    assert (v.check_id, v.answer, v.judge, v.reason) == ("t", "no", "ocr", "read 'X'")
    assert v.p_yes is None and v.call_failed is False
