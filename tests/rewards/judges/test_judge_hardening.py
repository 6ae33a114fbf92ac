"""Issue 18 (a tester's attack report) against the judges and the chat client: p_yes that guesses,
an API key with a trailing CR and a server that echoes it, an uncapped Retry-After, OCR options
that fail at run time, and a local VLM id that is not there offline.

Servers run on 127.0.0.1 inside the test (tests/chat_server.py); nothing reaches the network.
"""

import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from chat_server import ChatServer, Reply, ok
from PIL import Image

from rewards.judges.vlm import VLMJudge
from rewards.models.openai_client import ChatClient
from rewards.rubric import Check

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
FAST = dict(timeout_s=5.0, max_retries=2, backoff_s=0.01, api_key_env=None)
CHECK = Check("1", 'The title reads "Q3 Revenue".')


def solid(color="white", size=(32, 24)):
    return Image.new("RGB", size, color)


def logprob_reply(text: str, top: list[tuple[str, float]]) -> Reply:
    """A one-token chat completion whose first token has ``top`` = [(token, logprob)]."""
    content = [{"token": text, "logprob": top[0][1], "top_logprobs": [{"token": t, "logprob": lp} for t, lp in top]}]
    choice = {"index": 0, "message": {"role": "assistant", "content": text}, "logprobs": {"content": content}}
    return Reply(200, {"id": "x", "object": "chat.completion", "choices": [choice]})


def p_yes_verdict(reply: Reply, **kw):
    with ChatServer(lambda seen, n: reply) as server:
        [[v]] = VLMJudge(base_url=server.base_url, model="m", mode="p_yes", **FAST, **kw).judge(
            [solid()], ["p"], [[CHECK]]
        )
    return v


# ---- 1. p_yes must not guess "yes" ---------------------------------------------------------------


def test_p_yes_with_little_mass_on_the_answers_is_withheld():
    # the report's case: the model's first token is "I" (an apology); "Yes" has e^-20 of the mass
    v = p_yes_verdict(logprob_reply("I", [("I", -0.0001), ("Sorry", -9.5), ("Yes", -20.0)]))
    assert v.answer == "withheld" and v.p_yes is None
    mass = math.exp(-20.0)
    assert f"Yes/No mass {mass:.2e} among the top 3 logprobs is below min_answer_mass=0.5" in v.reason


def test_p_yes_mass_at_the_threshold_answers_and_below_withholds():
    # Yes 0.3 + No 0.3 = 0.6 >= 0.5: answered, p_yes = 0.3 / 0.6
    v = p_yes_verdict(logprob_reply("Yes", [("Yes", math.log(0.3)), ("No", math.log(0.3)), ("I", math.log(0.4))]))
    assert v.answer == "yes" and v.p_yes == pytest.approx(0.5)
    assert v.evidence == {"p_yes_source": "logprobs", "answer_mass": pytest.approx(0.6)}
    # the same reply with min_answer_mass=0.7: withheld
    v = p_yes_verdict(
        logprob_reply("Yes", [("Yes", math.log(0.3)), ("No", math.log(0.3)), ("I", math.log(0.4))]),
        min_answer_mass=0.7,
    )
    assert v.answer == "withheld" and "below min_answer_mass=0.7" in v.reason


def test_p_yes_text_fallback_is_as_strict_as_per_check():
    # no logprobs: an equivocal reply is withheld (per_check withholds the same reply)
    v = p_yes_verdict(ok("Yes, but actually no: the title is misspelled."))
    assert v.answer == "withheld" and v.p_yes is None
    assert "not a plain yes/no" in v.reason and "the server ignored logprobs" in v.reason
    # a plain one-word answer is still read, and the reason says the server ignored logprobs
    v = p_yes_verdict(ok("Yes."))
    assert v.answer == "yes" and v.p_yes is None
    assert v.evidence == {"p_yes_source": "text", "logprobs": "ignored by the server"}
    assert v.reason == "hard answer from the text: the server ignored logprobs=true (transformers serve does)"


def test_bad_min_answer_mass_raises():
    with pytest.raises(ValueError, match=r"min_answer_mass must be in \[0, 1\], got 1.5"):
        VLMJudge(mode="p_yes", min_answer_mass=1.5, api_key_env=None)


# ---- 3. Retry-After is capped ---------------------------------------------------------------------


def test_retry_after_3600_is_capped(monkeypatch, caplog):
    slept = []
    monkeypatch.setattr(time, "sleep", slept.append)  # urllib3's Retry.sleep calls time.sleep

    def respond(seen, n):
        return Reply(429, {"error": "slow down"}, {"Retry-After": "3600"}) if n == 0 else ok('{"answer": "yes"}')

    with ChatServer(respond) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode="per_check", max_retry_wait_s=2.5, **FAST)
        [[v]] = judge.judge([solid()], ["p"], [[CHECK]])
    assert v.answer == "yes" and len(server.seen) == 2
    assert 2.5 in slept and 3600 not in slept and max(slept) <= 2.5
    assert "the server sent Retry-After: 3600; waiting 2.5 s (max_retry_wait_s=2.5)" in caplog.text


def test_retry_after_3600_is_capped_at_60_s_by_default(monkeypatch):
    slept = []
    monkeypatch.setattr(time, "sleep", slept.append)

    def respond(seen, n):
        return Reply(429, {"error": "slow down"}, {"Retry-After": "3600"}) if n == 0 else ok("fine")

    with ChatServer(respond) as server:
        client = ChatClient(base_url=server.base_url, model="m", api_key_env=None, max_retries=1)
        assert client.chat([{"role": "user", "content": "hi"}], max_tokens=4) == "fine"
    assert [s for s in slept if s] == [60.0]  # the server asked for an hour


def test_bad_max_retry_wait_raises():
    with pytest.raises(ValueError, match=r"max_retry_wait_s must be >= 0, got -1"):
        ChatClient(base_url="http://127.0.0.1:1/v1", model="m", api_key_env=None, max_retry_wait_s=-1)


# ---- 2. an API key with a trailing CR, and a server that echoes it --------------------------------

KEY = "sk-rl18-LEAKCHECK-7f3a9c"
MARK = b"LEAKCHECK"


def echo(seen, n):
    """Judge statements about "alpha": HTTP 400 echoing the Authorization header; about "beta":
    a 200 whose reasons echo it; writer requests: a 200 reply that echoes it (not JSON)."""
    auth = seen.headers.get("Authorization", "")
    if seen.body["messages"][0]["content"].startswith("You write editing instructions"):
        return ok(f"I received {auth} and {json.dumps(dict(seen.headers))}")
    if "alpha" in seen.text:
        return Reply(400, {"error": {"message": f"bad key {auth}", "headers": dict(seen.headers)}})
    return ok(json.dumps({"1": {"result": False, "reason": f"you sent {auth}"}}))


def rows(tmp_path: Path) -> Path:
    lines = []
    for name, colour in (("alpha", "white"), ("beta", "gray")):
        solid(colour, (64, 48)).save(tmp_path / f"{name}.png")
        crit = [{"name": "look", "checks": [{"id": "1", "question": f"Is the {name} panel blue?"}]}]
        lines.append(json.dumps({"id": name, "prompt": f"a {name} page", "image": f"{name}.png", "criteria": crit}))
    data = tmp_path / "data.jsonl"
    data.write_text("\n".join(lines) + "\n")
    return data


def leaks(out: Path, *streams: str) -> list[str]:
    found = [str(p.relative_to(out)) for p in out.rglob("*") if p.is_file() and MARK in p.read_bytes()]
    return found + [f"stream {i}" for i, s in enumerate(streams) if MARK.decode() in s]


@pytest.mark.slow
def test_crlf_key_and_echoing_server_leak_nowhere(tmp_path):
    data = rows(tmp_path)
    env = {
        **os.environ,
        "RL18_KEY": KEY + "\r\n",  # a key file saved with CRLF
        "WANDB_MODE": "offline",
        "WANDB_SILENT": "true",
        "OMP_NUM_THREADS": "1",
        "PYTHONPATH": str(ROOT),
    }
    with ChatServer(echo) as server:
        judge_opts = [
            "judge=vlm",
            f"judge.judges.0.base_url={server.base_url}",
            "judge.judges.0.api_key_env=RL18_KEY",
            "judge.judges.0.max_retries=0",
        ]
        judge = subprocess.run(
            [str(BIN / "rubricloop-judge"), f"data={data}", f"out={tmp_path / 'judged'}", *judge_opts],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        refine = subprocess.run(
            [
                str(BIN / "rubricloop-refine"),
                f"data={data}",
                f"out={tmp_path / 'refined'}",
                "iterations=1",
                "writer=llm",
                f"writer.base_url={server.base_url}",
                "writer.api_key_env=RL18_KEY",
                *judge_opts,
            ],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
    # the stripped key reached the server on every request
    assert server.seen and all(s.headers["Authorization"] == f"Bearer {KEY}" for s in server.seen)
    # judge: alpha's call failed (an outage: the item fails with the 400 body), beta was answered "no"
    assert judge.returncode == 1, judge.stderr
    [line] = [json.loads(ln) for ln in (tmp_path / "judged" / "verdicts.jsonl").read_text().splitlines()]
    assert line["item_id"] == "beta" and line["answer"] == "no" and line["reason"] == "you sent Bearer <redacted>"
    [error] = json.loads((tmp_path / "judged" / "summary.json").read_text())["errors"]
    assert error.startswith("item alpha: ") and "HTTP 400" in error and "bad key Bearer <redacted>" in error
    assert refine.returncode == 1, refine.stderr
    summary = json.loads((tmp_path / "refined" / "summary.json").read_text())
    errors = " ".join(it.get("error") or "" for it in summary["items"])
    assert "HTTP 400" in errors and "I received Bearer <redacted>" in errors
    assert (tmp_path / "refined" / "wandb").is_dir()
    # nothing the runs wrote, printed or logged holds the key
    assert leaks(tmp_path / "judged", judge.stdout, judge.stderr) == []
    assert leaks(tmp_path / "refined", refine.stdout, refine.stderr) == []


def test_key_with_inner_whitespace_is_refused_naming_the_variable(monkeypatch):
    monkeypatch.setenv("RL18_BAD_KEY", "sk-abc def")
    with pytest.raises(ValueError) as e:
        ChatClient(base_url="http://127.0.0.1:1/v1", model="m", api_key_env="RL18_BAD_KEY")
    assert str(e.value) == (
        "api_key_env=RL18_BAD_KEY: the key in that variable holds whitespace or a control character "
        "inside it; fix the variable (its value is not shown)"
    )


# ---- 4. OCR options are checked when the judge is built -------------------------------------------

MODES = "a tesseract page segmentation mode that reads text, 1, 3..13 (0 and 2 read no text)"


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"psm": "abc"}, f"OCRJudge: psm must be {MODES}; got 'abc'"),
        ({"psm": 14}, f"OCRJudge: psm must be {MODES}; got 14"),
        ({"psm": 0}, f"OCRJudge: psm must be {MODES}; got 0"),  # orientation only: every item failed
        ({"psm": 2}, f"OCRJudge: psm must be {MODES}; got 2"),
        ({"second_psm": -1}, f"OCRJudge: second_psm must be {MODES} or null; got -1"),
        ({"second_psm": 0}, f"OCRJudge: second_psm must be {MODES} or null; got 0"),
        ({"lang": "osd"}, "OCRJudge: lang='osd': 'osd' detects orientation and script, it reads no text"),
        ({"lang": "zzz"}, "OCRJudge: lang='zzz': 'zzz' is not installed in tesseract (installed:"),
        ({"lang": "eng+zzz"}, "OCRJudge: lang='eng+zzz': 'zzz' is not installed in tesseract (installed:"),
    ],
)
def test_bad_ocr_options_raise_when_built(kw, message):
    from rewards.judges.ocr import OCRJudge

    with pytest.raises(ValueError) as e:
        OCRJudge(**kw)
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


@pytest.mark.slow
@pytest.mark.parametrize(
    "script",
    ["rubricloop-judge", "rubricloop-refine", "rubricloop-eval"],
)
def test_bad_ocr_option_exits_2_in_one_line(tmp_path, script):
    data = rows(tmp_path)
    args = [f"data={data}", f"out={tmp_path / 'out'}", "judge=ocr", "judge.judges.0.lang=zzz"]
    if script == "rubricloop-eval":
        example = ROOT / "refine" / "example"
        args = [f"data={example / 'bizgeneval_text.jsonl'}", f"images={example / 'images'}", "benchmark=bizgeneval"]
        args += [f"out={tmp_path / 'out'}", "limit=1", "judge=ocr", "judge.judges.0.lang=zzz"]
    env = {**os.environ, "WANDB_MODE": "disabled", "OMP_NUM_THREADS": "1"}
    proc = subprocess.run([str(BIN / script), *args], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "lang='zzz'" in lines[0] and lines[0].startswith("error: "), proc.stderr


# ---- 5. a local VLM id that is not there fails once, at build time, offline -----------------------


def test_missing_local_vlm_id_fails_at_build_offline(monkeypatch):
    from rewards.judges.local_vlm import LocalVLMJudge

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    t0 = time.monotonic()
    with pytest.raises(ValueError) as e:
        LocalVLMJudge(model_id="rubricloop-test/no-such-vlm", device="cpu", torch_dtype="float32")
    assert time.monotonic() - t0 < 5
    assert str(e.value).startswith("model_id='rubricloop-test/no-such-vlm': not a local folder and not in the ")
    assert "HF_HUB_OFFLINE=1" in str(e.value)


@pytest.mark.slow
def test_missing_local_vlm_id_exits_2_before_any_item(tmp_path):
    data = rows(tmp_path)
    env = {**os.environ, "WANDB_MODE": "disabled", "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
    t0 = time.monotonic()
    proc = subprocess.run(
        [
            str(BIN / "rubricloop-judge"),
            f"data={data}",
            f"out={tmp_path / 'out'}",
            "judge=ocr_local_vlm",
            "judge.judges.1.model_id=rubricloop-test/no-such-vlm",
            "judge.judges.1.device=cpu",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    elapsed = time.monotonic() - t0
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "rubricloop-test/no-such-vlm" in lines[0], proc.stderr
    assert not (tmp_path / "out" / "verdicts.jsonl").exists()
    assert elapsed < 30  # the report: ~50 s per item trying the network; startup is ~10 s on shared cores


def test_missing_local_vlm_writer_id_fails_at_build_offline(monkeypatch):
    from refine.writers.local_vlm import LocalVLMInstructionWriter

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ValueError) as e:
        LocalVLMInstructionWriter(model_id="rubricloop-test/no-such-vlm", device="cpu", torch_dtype="float32")
    assert str(e.value).startswith("model_id='rubricloop-test/no-such-vlm': not a local folder and not in the ")


def test_bad_editor_ocr_options_raise_when_built():
    from refine.editors.text import TextEditor

    with pytest.raises(ValueError, match=r"^TextEditor: psm must be a tesseract page segmentation mode"):
        TextEditor(psm=0)
    with pytest.raises(ValueError, match=r"^TextEditor: lang='eng\+osd': 'osd' detects orientation"):
        TextEditor(lang="eng+osd")


def test_retry_after_log_says_what_the_server_sent_and_the_capped_wait_apart(monkeypatch, caplog):
    """Issue 35 case 6: ``Retry-After: 100000`` was logged as "server asked for 21600 s" (urllib3's
    own cap read as the server's value)."""
    slept = []
    monkeypatch.setattr(time, "sleep", slept.append)

    def respond(seen, n):
        return Reply(429, {"error": "slow down"}, {"Retry-After": "100000"}) if n == 0 else ok("fine")

    with ChatServer(respond) as server:
        client = ChatClient(base_url=server.base_url, model="m", api_key_env=None, max_retries=1, max_retry_wait_s=2)
        with caplog.at_level("WARNING", logger="rewards.models.openai_client"):
            assert client.chat([{"role": "user", "content": "hi"}], max_tokens=4) == "fine"
    assert [s for s in slept if s] == [2.0]
    assert "the server sent Retry-After: 100000; waiting 2 s (max_retry_wait_s=2)" in caplog.text
    assert "21600" not in caplog.text
