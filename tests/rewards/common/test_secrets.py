"""rewards.common.secrets: keys read once, stripped, checked, and redacted from text and log records."""

import logging

import pytest

from rewards.common import secrets
from rewards.common.secrets import REDACTED, RedactingFilter, read_api_key, redact


def test_crlf_key_is_stripped_and_redacted_in_every_form(monkeypatch):
    monkeypatch.setenv("RL_SECRET_A", "sk-secret-a1b2\r\n")
    assert read_api_key("RL_SECRET_A") == "sk-secret-a1b2"
    text = "Bearer sk-secret-a1b2; raw 'sk-secret-a1b2\\r\\n'; json \"sk-secret-a1b2\\r\\n\""
    assert redact(text) == f"Bearer {REDACTED}; raw '{REDACTED}'; json \"{REDACTED}\""


def test_unset_or_blank_key_is_none(monkeypatch):
    monkeypatch.delenv("RL_SECRET_UNSET", raising=False)
    monkeypatch.setenv("RL_SECRET_BLANK", " \r\n")
    assert read_api_key("RL_SECRET_UNSET") is None and read_api_key("RL_SECRET_BLANK") is None
    assert read_api_key(None) is None


@pytest.mark.parametrize("value", ["sk-abc def", "sk-abc\rdef", "sk-abc\x1bdef", "sk-abc\u200bdef"])
def test_key_with_inner_whitespace_or_control_char_is_refused_without_its_value(monkeypatch, value):
    monkeypatch.setenv("RL_SECRET_BAD", value)
    with pytest.raises(ValueError) as e:
        read_api_key("RL_SECRET_BAD")
    assert str(e.value).startswith("api_key_env=RL_SECRET_BAD: the key in that variable holds whitespace")
    assert "abc" not in str(e.value)
    assert redact(f"x {value} y") == f"x {REDACTED} y"  # registered even though refused


def test_placeholder_keys_are_not_redacted(monkeypatch):
    monkeypatch.setenv("RL_SECRET_EMPTY", "EMPTY")  # vLLM's docs' placeholder
    assert read_api_key("RL_SECRET_EMPTY") == "EMPTY"
    assert redact("EMPTY reply") == "EMPTY reply"


def test_longest_secret_is_replaced_first():
    secrets.register("rl-tok-5q1")
    secrets.register("rl-tok-5q1-extended")
    assert redact("a rl-tok-5q1-extended b rl-tok-5q1") == f"a {REDACTED} b {REDACTED}"


def test_filter_redacts_message_args_and_traceback(monkeypatch):
    monkeypatch.setenv("RL_SECRET_LOG", "sk-log-9z8y")
    read_api_key("RL_SECRET_LOG")
    try:
        raise RuntimeError("server said sk-log-9z8y")
    except RuntimeError:
        record = logging.getLogger("t").makeRecord(
            "t", logging.WARNING, __file__, 1, "failed: %s", ("Bearer sk-log-9z8y",), exc_info=True
        )
        import sys

        record.exc_info = sys.exc_info()
    assert RedactingFilter().filter(record) is True
    formatted = logging.Formatter("%(message)s").format(record)
    assert formatted.startswith(f"failed: Bearer {REDACTED}\nTraceback")
    assert "sk-log-9z8y" not in formatted and f"RuntimeError: server said {REDACTED}" in formatted


def test_a_url_encoded_echo_of_the_key_is_redacted(monkeypatch):
    # issue 18 recheck: a server quoting urllib.parse.quote(Authorization) put the key in summary.json
    monkeypatch.setenv("RL_SECRET_URL", "sk-SeCrEt/+=42Zq\r")
    assert read_api_key("RL_SECRET_URL") == "sk-SeCrEt/+=42Zq"
    text = "bad header Bearer%20sk-SeCrEt%2F%2B%3D42Zq and form sk-SeCrEt%2F%2B%3D42Zq"
    assert redact(text) == f"bad header Bearer%20{REDACTED} and form {REDACTED}"


@pytest.mark.parametrize("given", ["sk-proj-a1b2c3d4e5", "Bearer abc123456", "1KEY-abcdef"])
def test_a_key_given_for_the_variables_name_is_refused_without_its_value(given):
    """A tester's slip: ``judge.judges.1.api_key_env=$OPENAI_API_KEY`` (the shell puts the key
    there) was saved in ``.hydra/config.yaml``, ``overrides.yaml`` and ``run.json``."""
    with pytest.raises(ValueError) as e:
        read_api_key(given)
    assert str(e.value).startswith("api_key_env must name an environment variable") and given not in str(e.value)
    assert redact(f"x {given} y") == f"x {REDACTED} y"


def test_a_key_in_api_key_env_stops_refine_before_anything_is_written(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    out, key = tmp_path / "out", "sk-live-abcdef1234567890"
    data = Path(__file__).resolve().parents[3] / "refine" / "example" / "bizgeneval_text.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "refine.cli", f"data={data}", f"out={out}", "judge=ocr_vlm"]
        + [f"judge.judges.1.api_key_env={key}", "limit=1", "wandb.mode=disabled"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2 and proc.stderr.strip().splitlines()[-1].startswith(
        "error: api_key_env must name an environment variable"
    )
    assert key not in proc.stdout + proc.stderr and not out.exists()
