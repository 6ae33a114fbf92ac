"""The VLM judge against a real OpenAI-compatible server (issue 21): ``transformers serve`` on
127.0.0.1 serving a tiny random-weight Qwen2.5-VL saved with its image processor
(tests/served_vlm.py), judged by ``rubricloop-judge`` in every mode.

What a real server showed that the scripted one (tests/chat_server.py) cannot: whether our requests
are accepted as sent (base64 PNG data URLs, image first, system prompt, response_format, logprobs,
max_completion_tokens), whether the image reaches the model, and what the judge makes of a server
that ignores logprobs and response_format. ``transformers serve`` needs ``transformers[serving]``
(``pip install -e .[serve]``; scripts/setup.sh installs it): without it these tests skip, naming it,
or fail where ``RUBRICLOOP_REQUIRE_SERVE=1`` (.ci/run).
"""

import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from PIL import Image, ImageDraw
from served_vlm import save_served_tiny_vlm

from rewards.judges.vlm import MODES, P_YES_SYSTEM, P_YES_USER
from rewards.models.openai_client import image_data_url, user_message

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
SERVING = ("fastapi", "uvicorn", "openai")  # what transformers[serving] adds and `transformers serve` imports
N_CHECKS = 3  # per item; two items
IGNORED = "Ignoring unsupported fields in the request: "
pytestmark = pytest.mark.slow  # starts a server and subprocesses (run by default and in CI; conftest.py)


class Served:
    """A running ``transformers serve`` and where its log goes."""

    def __init__(self, folder: Path, base_url: str, log: Path):
        self.folder, self.base_url, self.log = folder, base_url, log

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Served:
    missing = [m for m in SERVING if importlib.util.find_spec(m) is None]
    if missing:
        reason = f"transformers serve cannot start: {', '.join(missing)} not installed (pip install -e .[serve])"
        if os.environ.get("RUBRICLOOP_REQUIRE_SERVE") == "1":  # CI (.ci/run): installed by scripts/setup.sh
            pytest.fail(reason)
        pytest.skip(reason)
    tmp = tmp_path_factory.mktemp("served")
    folder = save_served_tiny_vlm(tmp / "tiny-qwen2.5-vl")
    port = free_port()
    log = tmp / "serve.log"
    env = {
        **os.environ,
        "OMP_NUM_THREADS": "1",
        "HF_HUB_OFFLINE": "1",
        "HF_HOME": str(tmp / "hf_home"),  # the remote-code processor is copied under it, not into ~/.cache
        "NO_COLOR": "1",
    }
    command = [str(BIN / "transformers"), "serve", str(folder), "--host", "127.0.0.1", "--port", str(port)]
    command += ["--trust-remote-code", "--device", "cpu", "--log-level", "info"]
    with open(log, "wb") as sink:
        proc = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, env=env)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                pytest.fail(f"transformers serve exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
            try:
                if requests.get(f"{base_url}/models", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"transformers serve not ready after 180 s:\n{log.read_text()[-3000:]}")
            time.sleep(0.5)
        yield Served(folder, base_url, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def page(n: int) -> Image.Image:
    """A 240x160 slide-like page: a coloured band and a box, different for each ``n``."""
    image = Image.new("RGB", (240, 160), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 240, 36), fill=((60 * n) % 256, 90, 200))
    draw.rectangle((20 + 30 * n, 60, 120 + 30 * n, 130), outline="black", width=3)
    return image


def write_rows(tmp_path: Path) -> Path:
    lines = []
    for n, name in enumerate(("q3-slide", "poster")):
        page(n).save(tmp_path / f"{name}.png")
        checks = [
            {"id": "1", "question": "Is the top band blue?"},
            {"id": "2", "question": "Is there a box with a black outline?"},
            {"id": "3", "question": 'Does the title read "Q3 Revenue"?'},
        ][:N_CHECKS]
        crit = [{"name": "look", "checks": checks}]
        row = {"id": name, "prompt": f"a {name} with a blue band", "image": f"{name}.png", "criteria": crit}
        lines.append(json.dumps(row))
    data = tmp_path / "rows.jsonl"
    data.write_text("\n".join(lines) + "\n")
    return data


def judge(served: Served, tmp_path: Path, mode: str, *options: str) -> tuple[subprocess.CompletedProcess, Path, str]:
    """Run ``rubricloop-judge judge=vlm`` on two items against the server; returns the process,
    its out folder and the server log lines written during the run."""
    start = len(served.log_text())
    out = tmp_path / f"judged-{mode}"
    command = [
        str(BIN / "rubricloop-judge"),
        f"data={write_rows(tmp_path)}",
        f"out={out}",
        "judge=vlm",
        f"judge.judges.0.base_url={served.base_url}",
        f"judge.judges.0.model={served.folder}",  # transformers serve: the FORCE_MODEL argument as given
        "judge.judges.0.api_key_env=null",
        f"judge.judges.0.mode={mode}",
        "judge.judges.0.max_tokens=8",  # the served model never stops on its own (tests/served_vlm.py)
        "judge.judges.0.max_retries=0",
        "judge.judges.0.wait_ready_s=30",
        "judge.judges.0.max_concurrency=2",
        *options,
    ]
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT), "WANDB_MODE": "disabled"}
    proc = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    return proc, out, served.log_text()[start:]


def verdicts(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "verdicts.jsonl").read_text().splitlines()]


def posts(log: str) -> list[str]:
    """The HTTP statuses of the chat requests in a uvicorn access log."""
    return re.findall(r'"POST /v1/chat/completions HTTP/1\.1" (\d{3})', log)


def test_the_image_reaches_the_model(served):
    # One p_yes request as the judge builds it, with and without its image: the prompt grows by the
    # image's tokens (the processor's patch grid over merge_size^2, plus vision_start and vision_end).
    # A server treating the model as text-only answers both with the same prompt length and a 200.
    from transformers import AutoImageProcessor

    image_processor = AutoImageProcessor.from_pretrained(str(served.folder))  # the folder's, as the server reads it
    url = image_data_url(page(0))
    text = P_YES_USER.format(prompt="a slide", question="Is the top band blue?")
    with_image = [{"role": "system", "content": P_YES_SYSTEM}, user_message(text, url, image_first=True)]
    text_only = [
        {"role": "system", "content": P_YES_SYSTEM},
        {"role": "user", "content": [{"type": "text", "text": text}]},
    ]
    usage = []
    for messages in (with_image, text_only):
        body = {"model": str(served.folder), "messages": messages, "max_tokens": 1, "temperature": 0}
        resp = requests.post(f"{served.base_url}/chat/completions", json=body, timeout=60)
        assert resp.status_code == 200, resp.text
        assert resp.json()["choices"][0]["message"]["content"] in ("Yes", "No")
        usage.append(resp.json()["usage"]["prompt_tokens"])
    grid = image_processor(images=[page(0)])["image_grid_thw"]
    image_tokens = int(grid.prod()) // image_processor.merge_size**2
    assert image_tokens > 0
    assert usage[0] - usage[1] == image_tokens + 2


@pytest.mark.parametrize("mode", MODES)
def test_rubricloop_judge_in_every_mode(served, tmp_path, mode):
    # per_check also sends the budget as max_completion_tokens (transformers serve reads either field)
    extra = ["judge.judges.0.token_field=max_completion_tokens"] if mode == "per_check" else []
    proc, out, log = judge(served, tmp_path, mode, *extra)
    requests_sent = 2 if mode == "per_image" else 2 * N_CHECKS
    assert posts(log) == ["200"] * requests_sent  # every request accepted as sent, nothing retried
    summary = json.loads((out / "summary.json").read_text())
    judge_log = (out / "judge.log").read_text()

    if mode == "p_yes":
        assert proc.returncode == 0, proc.stderr[-2000:]
        lines = verdicts(out)
        assert len(lines) == 2 * N_CHECKS and {ln["item_id"] for ln in lines} == {"q3-slide", "poster"}
        assert summary["coverage"]["checks"] == 2 * N_CHECKS and summary["errors"] == []
        # the server ignores logprobs (one warning in its log); every reply is one answer token, read as
        # a hard answer from the text, each marked, counted in the summary and warned about once
        assert re.search(IGNORED + r"\{'(logprobs|top_logprobs)', '(logprobs|top_logprobs)'\}", served.log_text())
        assert all(ln["answer"] in ("yes", "no") and ln["p_yes"] is None for ln in lines), lines
        assert all(ln["evidence"]["p_yes_source"] == "text" for ln in lines)
        assert summary["coverage"]["decided"] == 2 * N_CHECKS and summary["p_yes_from_text"] == 2 * N_CHECKS
        assert judge_log.count("ignored logprobs=true (transformers serve does); p_yes falls back") == 1
        assert f"p_yes: {2 * N_CHECKS} verdicts are hard answers from the reply's text" in proc.stdout
        return

    # hard modes: the server accepts response_format and ignores it (no "refused" fallback on our side);
    # the random model answers a run of Yes/No tokens, never JSON: a reply that answers no check is a
    # failed call (issue 35), so both items fail, saying so, and a rerun would ask again
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert IGNORED + "{'response_format'}" in served.log_text()
    assert "refused response_format" not in judge_log
    assert not (out / "verdicts.jsonl").exists() or verdicts(out) == []
    assert summary["n_failed"] == 2 and summary["n_judged"] == 0
    said = (
        "reply answers none of the 3 statements (not JSON): "
        if mode == "per_image"
        else "no yes/no answer in the reply: "
    )
    replies = []
    for error in summary["errors"]:
        assert said in error, error
        replies.append(error.split(said, 1)[1].rstrip(")").strip("'"))
    # each reply is the model's own 8 tokens: the budget (max_completion_tokens in per_check) was read
    assert all(re.fullmatch(r"(Yes|No){8}", r) for r in replies), replies


def test_require_logprobs_makes_a_server_without_them_an_error(served, tmp_path):
    proc, out, log = judge(served, tmp_path, "p_yes", "judge.judges.0.require_logprobs=true")
    assert proc.returncode == 1
    assert posts(log) == ["200"] * (2 * N_CHECKS)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_failed"] == 2 and summary["p_yes_from_text"] == 0
    assert len(summary["errors"]) == 2
    assert all("require_logprobs=true: no p_yes" in e for e in summary["errors"]), summary["errors"]
    errors = [ln for ln in proc.stderr.splitlines() if ln.startswith("error: ")]
    assert len(errors) == 2 and all("require_logprobs=true" in e for e in errors), proc.stderr[-2000:]
    assert not (out / "verdicts.jsonl").exists() or verdicts(out) == []


def test_the_served_model_name_is_the_folder_as_given(served, tmp_path):
    # the model-name rule of the README: a server started with a FORCE_MODEL answers only that name
    body = {"model": "Qwen/Qwen2.5-VL-7B-Instruct", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 1}
    resp = requests.post(f"{served.base_url}/chat/completions", json=body, timeout=60)
    assert resp.status_code == 400 and f"Server is pinned to '{served.folder}'" in resp.text
    listed = requests.get(f"{served.base_url}/models", timeout=10).json()["data"]
    assert [m["id"] for m in listed] == [str(served.folder)]
