"""The judge served over HTTP (``rewards.judges.serve``) and its client (``rewards.judges.http_judge``):
the HTTP rubric reward equals the in-process one on the same pages, checks survive the wire with
their compiled specs, and a failed request withholds its checks (no reward for those samples, one
warning line) instead of scoring 0."""

from __future__ import annotations

import json
import logging
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
import requests
import torch
from hydra import compose, initialize_config_module
from pages import page
from PIL import Image, ImageDraw

from rewards.common.components import build_component
from rewards.importers import expectations_of
from rewards.judges.http_judge import HTTPJudge
from rewards.judges.serve import JudgeServer
from rewards.judges.wire import check_from_dict, check_to_dict
from rewards.reward_fns import RubricReward, combine_rewards
from rewards.rubric import Check, Item, Rubric, TextExpectation
from rewards.text.questions.question_compiler import compile_question

ROOT = Path(__file__).resolve().parents[3]
BAND = "Is there a dark title band across the top of the page?"
CARD = "Is there a light card in the left half of the page?"
BARS = "Do the bars rise from left to right?"
INK = "Does ink cover between 5% and 40% of the page?"
UNKNOWN = "Is the mood of the page cheerful?"  # no layout rule: withheld by the layout judge


def served_judge(name: str = "layout"):
    """The judge ``python -m rewards.judges.serve judge=<name>`` builds (conf/serve_judge.yaml)."""
    with initialize_config_module("conf", version_base="1.3"):
        return build_component(compose("serve_judge", overrides=[f"judge={name}"]), "judge")


def compiled(check_id: str, question: str) -> Check:
    """A check as the importers make it: the question compiled, its text expectations from the spec."""
    spec = compile_question(question)
    return Check(check_id, question, expects=expectations_of(spec), spec=spec)


def item(i: int, *questions: str) -> Item:
    return Item(f"p{i}", "a slide", Rubric.flat([Check(f"c{k}", q) for k, q in enumerate(questions)]))


def pages() -> list[Image.Image]:
    """A grey slide with a dark band and a light card on the left, rising bars, a bare light page,
    a black page, noise."""
    slide = Image.new("RGB", (96, 64), (140, 140, 140))
    d = ImageDraw.Draw(slide)
    d.rectangle([0, 0, 95, 12], fill=(30, 30, 60))
    d.rectangle([5, 20, 42, 57], fill=(250, 250, 250), outline=(120, 120, 120))
    bars = Image.new("RGB", (64, 64), (242, 242, 242))
    for i, h in enumerate((12, 24, 36, 48)):
        ImageDraw.Draw(bars).rectangle([4 + 15 * i, 63 - h, 13 + 15 * i, 63], fill=(25, 25, 25))
    noise = Image.effect_noise((64, 64), 80).convert("RGB")
    return [slide, bars, Image.new("RGB", (64, 64), (235, 235, 235)), Image.new("RGB", (64, 64)), noise]


ITEMS = [
    item(0, BAND, CARD, INK),
    item(1, BARS, BAND, INK),
    item(2, BAND, CARD, BARS),
    item(3, BAND, INK),
    item(4, UNKNOWN),
]


def test_http_rubric_reward_equals_the_in_process_reward_on_the_same_pages():
    images, prompts = pages(), [it.prompt for it in ITEMS]
    local = RubricReward(served_judge())(prompts, images, items=ITEMS)
    with JudgeServer(served_judge()) as server:
        remote_fn = RubricReward(HTTPJudge(server.url, batch_size=2))
        remote = remote_fn(prompts, images, items=ITEMS)
        verdicts = remote_fn.last_verdicts
    assert remote == local
    # the pages are told apart: the slide passes all three, the bars page all but the band, the
    # bare page fails the band; a rubric the layout judge cannot answer gets no reward at all
    assert local[0] == 1.0 and local[4] is None and len(set(local[:4])) >= 3, local
    assert server.requests == 3  # 5 images, 2 per request
    assert [v.judge for v in verdicts[0]] == ["layout"] * 3  # the served judge's own verdicts


def test_the_ocr_judge_over_http_gives_the_same_verdicts_reasons_and_evidence():
    """The default judge (conf/judge/ocr.yaml) on a page with text: compiled checks cross the wire."""
    questions = [
        'Does the title read "Quarterly Revenue"?',
        'Is the text "Q3 2025" shown below "Quarterly Revenue"?',
        'Does the page show "Net margin 18%"?',  # the page says 12%: "no"
        "Is the title in bold?",  # no quoted text: withheld by OCR
    ]
    checks = [compiled(str(k), q) for k, q in enumerate(questions)]
    it = Item("x", "a slide", Rubric.flat(checks))
    img = page(
        [("Quarterly Revenue", (40, 30), 40, (20, 20, 20)), ("Q3 2025", (40, 90), 24, (60, 60, 60)),
         ("Net margin 12%", (40, 200), 24, (20, 20, 20))]
    )  # fmt: skip
    local_fn = RubricReward(served_judge("ocr"))
    local = local_fn(["a slide"], [img], items=[it])
    with JudgeServer(served_judge("ocr")) as server:
        remote_fn = RubricReward(HTTPJudge(server.url))
        remote = remote_fn(["a slide"], [img], items=[it])
    assert remote == local == [2 / 4]
    assert [v.answer for v in remote_fn.last_verdicts[0]] == ["yes", "yes", "no", "withheld"]
    assert remote_fn.last_verdicts == local_fn.last_verdicts  # reasons and evidence too


def test_a_server_error_gives_those_samples_no_reward_and_one_warning_line(caplog):
    class FailsOnBlack:
        """The layout judge, except that it raises on an all-black page (a crashing judge)."""

        name = "layout"

        def __init__(self):
            self.inner = served_judge()

        def judge(self, images, prompts, checks):
            if any(im.getextrema() == ((0, 0),) * 3 for im in images):
                raise RuntimeError("the judge crashed\non a black page")
            return self.inner.judge(images, prompts, checks)

    images, prompts = pages(), [it.prompt for it in ITEMS]
    local = RubricReward(served_judge())(prompts, images, items=ITEMS)
    with JudgeServer(FailsOnBlack()) as server, caplog.at_level(logging.WARNING, "rewards.judges.http_judge"):
        fn = RubricReward(HTTPJudge(server.url, batch_size=1, max_retries=1, backoff_s=0), name="rubric")
        total, per_fn = combine_rewards([fn], [1.0], prompts, images, items=ITEMS)
        assert fn(prompts[:3], images[:3], items=ITEMS[:3]) == local[:3]
    remote, expected = per_fn["rubric"].tolist(), torch.tensor(local[:3]).tolist()  # combine_rewards: float32
    assert remote[:3] == expected and local[3] is not None and local[4] is None
    assert math.isnan(remote[3]) and math.isnan(remote[4])  # no reward: left out of the weighted sum
    assert total.tolist()[:3] == expected and total[3].item() == 0.0
    lines = [r.getMessage() for r in caplog.records if r.name == "rewards.judges.http_judge"]
    assert len(lines) == 1 and "\n" not in lines[0], lines
    assert "HTTP 500" in lines[0] and "RuntimeError: the judge crashed\\non a black page" in lines[0]
    assert server.requests == 5 + 1 + 3  # one request per image, the black page's retried once


def test_failed_requests_are_withheld_call_failed_with_the_reason():
    images, prompts = pages()[:2], ["a", "b"]
    checks = [[Check("c0", BAND)], [Check("c0", BARS), Check("c1", INK)]]
    with JudgeServer(served_judge()) as server:
        url = server.url
    verdicts = HTTPJudge(url, max_retries=0).judge(images, prompts, checks)  # the server is gone
    assert [[v.answer for v in row] for row in verdicts] == [["withheld"], ["withheld", "withheld"]]
    assert all(v.call_failed and v.reason.startswith(f"request failed: {url}/judge: ") for row in verdicts for v in row)
    assert "ConnectionError" in verdicts[0][0].reason or "NewConnectionError" in verdicts[0][0].reason


def test_the_server_asks_for_its_key_when_it_has_one(monkeypatch):
    monkeypatch.setenv("JUDGE_SERVER_TEST_KEY", "s3cret-key")
    images, prompts = pages()[:1], ["a"]
    checks = [[Check("c0", BAND)]]
    with JudgeServer(served_judge(), api_key_env="JUDGE_SERVER_TEST_KEY") as server:
        without = HTTPJudge(server.url, max_retries=0).judge(images, prompts, checks)[0][0]
        with_key = HTTPJudge(server.url, api_key_env="JUDGE_SERVER_TEST_KEY").judge(images, prompts, checks)[0][0]
    assert without.answer == "withheld" and "HTTP 401" in without.reason and "s3cret" not in without.reason
    assert with_key.answer == "yes" and with_key.judge == "layout"


def test_a_bad_request_is_answered_400_in_one_line():
    with JudgeServer(served_judge()) as server:
        bad = requests.post(server.url + "/judge", data=b"{not json", timeout=10)
        short = requests.post(server.url + "/judge", json={"images": [], "prompts": ["a"], "checks": []}, timeout=10)
        health = requests.get(server.url + "/health", timeout=10)
        unnamed = requests.post(server.url + "/judge", json={"images": []}, timeout=10)
    assert bad.status_code == 400 and bad.json()["error"].startswith("bad request: ")
    assert unnamed.status_code == 400 and unnamed.json() == {  # was "bad request: 'prompts'", a KeyError's repr
        "error": "bad request: missing field 'prompts'; the body must hold images, prompts and checks"
    }
    assert short.status_code == 400 and short.json() == {"error": "bad request: 0 images, 1 prompts and 0 check lists"}
    assert health.json() == {"status": "ok", "judge": "router"}  # conf/judge/layout.yaml: a router


@pytest.mark.parametrize(
    "question",
    [
        'Does the title read "Q3 Revenue" directly below "MENU"?',
        'Is "Total" written in bold in the second card?',
        'Do "North" and "South" both appear in the legend?',
        BAND,
    ],
)
def test_checks_cross_the_wire_with_their_compiled_spec(question):
    spec = compile_question(question)
    check = Check("7", question, difficulty="hard", weight=2.0, tag="text", expects=expectations_of(spec), spec=spec)
    assert check_from_dict(json.loads(json.dumps(check_to_dict(check)))) == check
    given = Check("8", question, expects=(TextExpectation("Q3", "top"),))  # a row's own expectations, no spec
    assert check_from_dict(json.loads(json.dumps(check_to_dict(given)))) == given


@pytest.mark.slow
def test_python_m_serve_starts_the_configured_judge(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "rewards.judges.serve", "judge=layout", "port=0"]
    proc = subprocess.Popen(args, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("serving judge layout at http://127.0.0.1:"), line + proc.stderr.read()
        url = line.split(" at ")[1].split()[0]
        assert requests.get(url + "/health", timeout=10).json() == {"status": "ok", "judge": "layout"}
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    bad = subprocess.run([*args[:3], "judge=nope"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and len(bad.stderr.strip().splitlines()) == 1
    for option, said in (("port=99999", "cannot serve on"), ("api_key_env=RUBRICLOOP_UNSET_KEY_X", "is unset")):
        bad = subprocess.run(
            [*args[:3], "judge=layout", option], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
        assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and said in bad.stderr, bad.stderr
