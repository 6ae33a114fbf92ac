"""`rubricloop-judge` against a VLM judge that is down (a server on 127.0.0.1 answering 500): an
item whose checks all failed as calls is a failed item, not a finished one, and a rerun redoes it."""

import json
import re

from chat_server import ChatServer, Reply, ok
from hydra import compose, initialize_config_module
from PIL import Image

from evaluation.judge_cli import run
from rewards.judges.outage import judges_down
from rewards.rubric import Verdict

QUESTIONS = ["Is the title in bold?", "Is the background light?"]


def write_data(tmp_path, ids=("a", "b")):
    rows = []
    for i in ids:
        Image.new("RGB", (64, 32), "white").save(tmp_path / f"{i}.png")
        checks = [{"id": str(k + 1), "question": q} for k, q in enumerate(QUESTIONS)]
        rows.append(
            {"id": i, "prompt": "a page", "image": f"{i}.png", "criteria": [{"name": "look", "checks": checks}]}
        )
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return data


def answer_true(seen, n):
    numbers = re.findall(r"^(\d+)\. ", seen.text, flags=re.M)
    return ok(json.dumps({k: {"result": True, "reason": "visible"} for k in numbers}))


def config(data, out, server, *extra):
    with initialize_config_module("conf", version_base="1.3"):
        return compose(
            "judge_run",
            overrides=[
                f"data={data}",
                f"out={out}",
                "judge=vlm",
                f"judge.judges.0.base_url={server.base_url}",
                "judge.judges.0.max_retries=0",
                *extra,
            ],
        )


def test_a_dead_judge_fails_every_item_and_a_rerun_judges_them(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data, out = write_data(tmp_path), tmp_path / "out"
    up = False
    with ChatServer(lambda seen, n: answer_true(seen, n) if up else Reply(500, {"error": "down"})) as server:
        assert run(config(data, out, server)) == 1
        captured = capsys.readouterr()
        errors = [ln for ln in captured.err.splitlines() if ln.startswith("error: ")]
        assert len(errors) == 2 and errors[0].startswith("error: item a: judge vlm:")
        assert "failed on 2 of 2 checks sent to it (request failed: " in errors[0]
        assert "0 of 2 items judged, 2 failed" in captured.out
        assert "mean " not in captured.out  # no score from verdicts nobody gave
        assert (out / "verdicts.jsonl").read_text() == ""
        summary = json.loads((out / "summary.json").read_text())
        assert (summary["n_judged"], summary["n_failed"], summary["scores"]["mean_item_scores"]) == (0, 2, {})

        up = True  # the judge is back: both items judged, not "already done"
        assert run(config(data, out, server)) == 0
    assert len(server.seen) == 4
    captured = capsys.readouterr()
    assert "judging 2 of 2 items" in captured.out and "already done" not in captured.out
    lines = [json.loads(ln) for ln in (out / "verdicts.jsonl").read_text().splitlines()]
    assert [(ln["item_id"], ln["answer"]) for ln in lines] == [("a", "yes"), ("a", "yes"), ("b", "yes"), ("b", "yes")]
    assert json.loads((out / "summary.json").read_text())["scores"]["mean_item_scores"]["pass_rate"] == 1.0


def test_scores_count_only_the_items_the_judge_answered(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data, out = write_data(tmp_path, ids=("a", "b", "c")), tmp_path / "out"

    def b_down(seen, n):  # the request of item b's image fails; 64 x 32 white pages all look alike,
        return Reply(500, {"error": "down"}) if n == 1 else answer_true(seen, n)  # so fail by order

    with ChatServer(b_down) as server:
        assert run(config(data, out, server, "judge.judges.0.max_concurrency=1")) == 1
    captured = capsys.readouterr()
    assert "2 of 3 items judged, 1 failed" in captured.out and "mean pass_rate: 1.000" in captured.out
    summary = json.loads((out / "summary.json").read_text())
    assert summary["coverage"] == {"checks": 4, "decided": 4, "withheld": 0, "yes": 4, "no": 0, "coverage": 1.0}
    assert [e.split(":")[0] for e in summary["errors"]] == ["item b"]


def test_judge_outage_threshold_counts_failed_calls_per_judge(tmp_path, capsys, monkeypatch):
    """per_check mode: one request per check; the "background" question fails, so 1 of 2 checks
    failed as calls per item: an outage at judge_outage=0.5, an answered item at the default 1.0."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = write_data(tmp_path, ids=("a",))

    def background_down(seen, n):
        if "background" in seen.text:
            return Reply(500, {"error": "down"})
        return ok('{"answer": "yes"}')  # a bare "yes" answers nothing in per_check: a failed call too

    mode = "judge.judges.0.mode=per_check"
    with ChatServer(background_down) as server:
        assert run(config(data, tmp_path / "default", server, mode)) == 0
        assert run(config(data, tmp_path / "half", server, mode, "judge_outage=0.5")) == 1
    assert "error: item a: judge vlm:" in capsys.readouterr().err
    with initialize_config_module("conf", version_base="1.3"):
        bad = compose("judge_run", overrides=[f"data={data}", f"out={tmp_path / 'o'}", "judge_outage=0"])
    assert run(bad) == 2 and "judge_outage must be a number in (0, 1], got 0" in capsys.readouterr().err


def test_judges_down_counts_calls_not_cached_or_router_verdicts():
    fail = Verdict("1", "withheld", "vlm:m", "ocr: no text; vlm:m: request failed: 500", call_failed=True)
    answered = Verdict("2", "yes", "vlm:m")
    cached_fail = Verdict("3", "withheld", "vlm:m", "x", {"cached": True}, call_failed=True)
    router = Verdict("4", "withheld", "router", "no judge can answer")
    assert judges_down([fail, fail], 1.0) == ["judge vlm:m failed on 2 of 2 checks sent to it (request failed: 500)"]
    assert judges_down([fail, answered, router, cached_fail], 1.0) == []
    assert judges_down([fail, answered], 0.5) == [
        "judge vlm:m failed on 1 of 2 checks sent to it (request failed: 500)"
    ]
    assert judges_down([router], 1.0) == []


def test_a_reply_that_answers_no_check_fails_the_item_and_a_rerun_asks_again(tmp_path, capsys, monkeypatch):
    """Issue 35 case 2: a valid envelope whose content was "banana ..." (or 5 MB of text) was a
    finished item with every check withheld; the rerun said "(1 already done)". It is a failed call."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data, out = write_data(tmp_path, ids=("a",)), tmp_path / "out"
    replies = ["banana banana, I like the picture", "x" * 5_000_000]
    with ChatServer(lambda seen, n: ok(replies[n]) if n < 2 else answer_true(seen, n)) as server:
        for n in range(2):
            assert run(config(data, out, server)) == 1
            captured = capsys.readouterr()
            assert "0 of 1 items judged, 1 failed" in captured.out and "already done" not in captured.out
            [error] = [ln for ln in captured.err.splitlines() if ln.startswith("error: ")]
            assert error.startswith("error: item a: judge vlm:") and "failed on 2 of 2 checks" in error
            assert ("reply answers none of the 2 statements" if n == 0 else "reply of 5000000 characters") in error
            assert len(error) < 600
        assert run(config(data, out, server)) == 0  # a readable reply at last: judged
    assert len(server.seen) == 3


def test_a_reply_that_answers_some_checks_withholds_the_rest_and_the_summary_counts_them(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data, out = write_data(tmp_path, ids=("a",)), tmp_path / "out"
    with ChatServer(lambda seen, n: ok('{"1": {"result": true, "reason": "bold"}}')) as server:
        assert run(config(data, out, server)) == 0
    lines = [json.loads(ln) for ln in (out / "verdicts.jsonl").read_text().splitlines()]
    assert [(ln["answer"], ln["call_failed"]) for ln in lines] == [("yes", False), ("withheld", False)]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["unanswered_in_reply"] == 1
    assert "1 checks withheld because the judge's reply did not answer them" in capsys.readouterr().out
