"""The token budget's request field (issue 21): ``token_field`` sends ``max_tokens`` (vLLM, SGLang,
transformers serve), ``max_completion_tokens`` (OpenAI's newer models refuse ``max_tokens``) or both.
Against the scripted server of tests/chat_server.py on 127.0.0.1."""

import json

import pytest
from chat_server import ChatServer, Reply, ok
from PIL import Image

from rewards.judges.vlm import VLMJudge
from rewards.models.openai_client import ChatClient
from rewards.rubric import Check

FAST = dict(timeout_s=5.0, max_retries=0, api_key_env=None)
CHECK = Check("1", "Is the panel blue?")
# OpenAI's answer to max_tokens from a model that wants max_completion_tokens
REFUSAL = {
    "error": {
        "message": "Unsupported parameter: 'max_tokens' is not supported with this model. "
        "Use 'max_completion_tokens' instead.",
        "type": "invalid_request_error",
        "param": "max_tokens",
        "code": "unsupported_parameter",
    }
}


def budgets(token_field: str | None, mode: str) -> dict:
    """The token-budget fields of the one request a judge sends for CHECK."""
    reply = ok(json.dumps({"answer": "yes", "reason": "blue"}) if mode == "per_check" else "Yes")
    kw = {} if token_field is None else {"token_field": token_field}
    with ChatServer(lambda seen, n: reply) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode=mode, max_tokens=77, **FAST, **kw)
        [[verdict]] = judge.judge([Image.new("RGB", (32, 24), "blue")], ["p"], [[CHECK]])
    assert verdict.answer == "yes"
    [seen] = server.seen
    return {k: v for k, v in seen.body.items() if k in ("max_tokens", "max_completion_tokens")}


@pytest.mark.parametrize(
    "token_field, mode, expected",
    [
        (None, "per_check", {"max_tokens": 77}),  # the default: what vLLM and transformers serve read
        ("max_tokens", "per_check", {"max_tokens": 77}),
        ("max_completion_tokens", "per_check", {"max_completion_tokens": 77}),
        ("both", "per_check", {"max_tokens": 77, "max_completion_tokens": 77}),
        ("max_completion_tokens", "p_yes", {"max_completion_tokens": 1}),  # p_yes asks for one token
    ],
)
def test_token_budget_goes_in_the_field_token_field_names(token_field, mode, expected):
    assert budgets(token_field, mode) == expected


def test_a_server_refusing_max_tokens_says_which_option_to_set():
    def respond(seen, n):
        return Reply(400, REFUSAL) if "max_tokens" in seen.body else ok(json.dumps({"answer": "no", "reason": "r"}))

    with ChatServer(respond) as server:
        [[refused]] = VLMJudge(base_url=server.base_url, model="m", mode="per_check", **FAST).judge(
            [Image.new("RGB", (32, 24))], ["p"], [[CHECK]]
        )
        [[answered]] = VLMJudge(
            base_url=server.base_url, model="m", mode="per_check", token_field="max_completion_tokens", **FAST
        ).judge([Image.new("RGB", (32, 24))], ["p"], [[CHECK]])
    assert refused.answer == "withheld" and refused.reason.startswith("request failed: ")
    assert "HTTP 400" in refused.reason and "Use 'max_completion_tokens' instead." in refused.reason
    assert refused.reason.endswith(
        "(the server wants the budget as max_completion_tokens: set token_field=max_completion_tokens)"
    )
    assert answered.answer == "no"


def test_unknown_token_field_is_refused_in_one_line():
    with pytest.raises(ValueError) as e:
        VLMJudge(base_url="http://127.0.0.1:1/v1", model="m", token_field="max_new_tokens", **FAST)
    assert str(e.value) == (
        "VLMJudge: token_field must be one of ('max_tokens', 'max_completion_tokens', 'both'), got 'max_new_tokens'"
    )
    with pytest.raises(ValueError, match=r"^token_field must be one of .*, got 'n'$"):
        ChatClient(base_url="http://127.0.0.1:1/v1", model="m", api_key_env=None, token_field="n")
