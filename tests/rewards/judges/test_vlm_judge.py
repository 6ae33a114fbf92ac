"""The VLM judge against a real HTTP server on 127.0.0.1 (tests/chat_server.py)."""

import base64
import io
import json
import logging
import math
import re
import time

import numpy as np
import pytest
from chat_server import ChatServer, Reply, ok
from PIL import Image

from rewards.judges.vlm import VLMJudge, parse_per_check, parse_per_image
from rewards.models.openai_client import ChatClient, ChatError, image_data_url, parse_json_object
from rewards.rubric import Check

FAST = dict(timeout_s=5.0, max_retries=2, backoff_s=0.01, api_key_env=None)
CHECKS = [
    Check("1", 'The title reads "Q3 Revenue".'),
    Check("2", "There are three bars."),
    Check("3", "The legend is at the bottom."),
]


def solid(color, size=(32, 24)):
    return Image.new("RGB", size, color)


def test_per_image_request_carries_all_questions_and_the_image():
    reply = (
        'Sure, here it is:\n```json\n{"1": {"result": true, "reason": "title reads Q3 Revenue"},\n '
        '"2": {"result": false, "reason": "four bars"}, "3": {"result": "True", "reason": "legend below"}}\n```'
    )
    with ChatServer(lambda seen, n: ok(reply)) as server:
        judge = VLMJudge(base_url=server.base_url, model="judge-m", **FAST)
        image = solid((200, 10, 30))
        out = judge.judge([image], ["a revenue slide"], [CHECKS])
    assert len(server.seen) == 1
    seen = server.seen[0]
    assert seen.path == "/v1/chat/completions"
    assert seen.body["model"] == "judge-m" and seen.body["temperature"] == 0
    assert seen.body["messages"][0]["role"] == "system"
    assert "cannot be determined" in seen.body["messages"][0]["content"]
    assert "exact character match" in seen.body["messages"][0]["content"]
    for n, c in enumerate(CHECKS, start=1):
        assert f"{n}. {c.question}" in seen.text
    assert "a revenue slide" not in seen.text  # BizGenEval does not show the judge the prompt
    assert np.array_equal(np.asarray(seen.image.convert("RGB")), np.asarray(image))
    assert [(v.check_id, v.answer, v.judge) for v in out[0]] == [
        ("1", "yes", "vlm:judge-m"),
        ("2", "no", "vlm:judge-m"),
        ("3", "yes", "vlm:judge-m"),
    ]
    assert out[0][1].reason == "four bars"


def test_per_check_sends_one_request_per_check_with_its_image_and_prompt():
    def respond(seen, n):
        yes = "three bars" in seen.text or "blue" in seen.text
        return ok(json.dumps({"answer": "yes" if yes else "no", "reason": f"saw {seen.image.getpixel((0, 0))}"}))

    images = [solid((255, 0, 0)), solid((0, 0, 255))]
    checks = [[CHECKS[0], CHECKS[1]], [Check("b1", "The background is blue.")]]
    with ChatServer(respond) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode="per_check", **FAST)
        out = judge.judge(images, ["red slide", "blue poster"], checks)
    assert len(server.seen) == 3
    for seen in server.seen:
        questions = [c.question for cs in checks for c in cs if c.question in seen.text]
        assert len(questions) == 1  # exactly one check per request
        assert "hyper-conservative" in seen.body["messages"][0]["content"]
        # the image and the prompt sent with a question are those of its own item
        expected = ("blue poster", (0, 0, 255)) if "blue" in questions[0] else ("red slide", (255, 0, 0))
        assert expected[0] in seen.text and seen.image.getpixel((0, 0)) == expected[1]
    assert [[v.answer for v in row] for row in out] == [["no", "yes"], ["yes"]]
    assert [[v.check_id for v in row] for row in out] == [["1", "2"], ["b1"]]
    assert out[1][0].reason == "saw (0, 0, 255)"


@pytest.mark.parametrize(
    "reply, answers, reasons",
    [
        ("The image looks fine to me.", ["withheld"] * 3, ["not JSON"] * 3),
        (
            '{"1": {"result": true, "reason": "ok"}, "2": {"result": "maybe"}}',
            ["yes", "withheld", "withheld"],
            ["ok", "unreadable result for statement 2", "no answer for statement 3"],
        ),
        # invalid JSON (unescaped quotes): results are salvaged per statement number, reasons are lost
        (
            '{"1": {"result": true, "reason": "the "Q3" title"}, "2": {"result": false, "reason": "x"}}',
            ["yes", "no", "withheld"],
            ["", "", "no answer for statement 3"],
        ),
    ],
)
def test_malformed_per_image_reply_is_withheld_per_check(reply, answers, reasons):
    with ChatServer(lambda seen, n: ok(reply)) as server:
        out = VLMJudge(base_url=server.base_url, model="m", **FAST).judge([solid("white")], ["p"], [CHECKS])[0]
    assert [v.answer for v in out] == answers
    for v, reason in zip(out, reasons):
        assert reason in v.reason and (reason or v.reason == "")


def test_malformed_per_check_reply_is_withheld():
    replies = ['{"answer": "probably"}', "yes", '```json\n{"answer": "No", "reason": "blurred"}\n```']
    with ChatServer(lambda seen, n: ok(replies[n])) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode="per_check", max_concurrency=1, **FAST)
        out = judge.judge([solid("white")], ["p"], [CHECKS])[0]
    assert [v.answer for v in out] == ["withheld", "withheld", "no"]
    assert "no yes/no answer" in out[0].reason and out[2].reason == "blurred"


def test_500_then_success_is_retried_and_answered():
    def respond(seen, n):
        return (
            Reply(500, {"error": "overloaded"})
            if n == 0
            else ok('{"1": {"result": true}, "2": {"result": false}, "3": {"result": true}}')
        )

    with ChatServer(respond) as server:
        out = VLMJudge(base_url=server.base_url, model="m", **FAST).judge([solid("white")], ["p"], [CHECKS])[0]
    assert len(server.seen) == 2
    assert [v.answer for v in out] == ["yes", "no", "yes"]


def test_429_retry_after_is_respected():
    def respond(seen, n):
        return Reply(429, {"error": "rate limited"}, {"Retry-After": "1"}) if n == 0 else ok('{"answer": "yes"}')

    with ChatServer(respond) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode="per_check", **FAST)
        t0 = time.monotonic()
        out = judge.judge([solid("white")], ["p"], [[CHECKS[0]]])[0]
        elapsed = time.monotonic() - t0
    assert len(server.seen) == 2 and out[0].answer == "yes"
    assert elapsed >= 1.0  # the server asked for 1 s; backoff alone would be 0 s


def test_timeout_is_withheld_after_retries():
    with ChatServer(lambda seen, n: Reply(200, {}, delay_s=1.0)) as server:
        judge = VLMJudge(
            base_url=server.base_url, model="m", timeout_s=0.2, max_retries=2, backoff_s=0.01, api_key_env=None
        )
        out = judge.judge([solid("white")], ["p"], [CHECKS])[0]
    assert len(server.seen) == 3  # first attempt + 2 retries
    assert all(v.answer == "withheld" for v in out)
    assert all("ReadTimeoutError" in v.reason and "after 2 retries" in v.reason for v in out)


def test_connection_refused_is_withheld():
    with ChatServer(lambda seen, n: ok("{}")) as server:
        url = server.base_url
    out = VLMJudge(base_url=url, model="m", **FAST).judge([solid("white")], ["p"], [CHECKS[:1]])[0]
    assert out[0].answer == "withheld" and "request failed" in out[0].reason


def test_api_key_reaches_header_but_never_reasons_or_logs(monkeypatch, caplog):
    key = "sk-test-7f3a9c0e11"
    monkeypatch.setenv("RUBRICLOOP_TEST_KEY", key)
    caplog.set_level(logging.DEBUG)
    # The server echoes the Authorization header back in its 503 body, as a leaky proxy might.
    with ChatServer(lambda seen, n: Reply(503, {"error": f"bad {seen.headers['Authorization']}"})) as server:
        judge = VLMJudge(
            base_url=server.base_url,
            model="m",
            api_key_env="RUBRICLOOP_TEST_KEY",
            timeout_s=5.0,
            max_retries=1,
            backoff_s=0.01,
        )
        out = judge.judge([solid("white")], ["p"], [CHECKS])[0]
    assert len(server.seen) == 2
    assert all(s.headers["Authorization"] == f"Bearer {key}" for s in server.seen)
    assert all(v.answer == "withheld" and "HTTP 503" in v.reason and "<redacted>" in v.reason for v in out)
    assert all(key not in json.dumps(v.to_dict()) for v in out)
    assert "HTTP 503" in caplog.text and key not in caplog.text
    assert key not in repr(judge.client)


def test_no_key_env_sends_no_authorization(monkeypatch):
    monkeypatch.delenv("RUBRICLOOP_UNSET_KEY", raising=False)
    with ChatServer(lambda seen, n: ok('{"answer": "no"}')) as server:
        VLMJudge(base_url=server.base_url, model="m", mode="per_check", api_key_env="RUBRICLOOP_UNSET_KEY").judge(
            [solid("white")], ["p"], [[CHECKS[0]]]
        )
    assert "Authorization" not in server.seen[0].headers


def test_images_are_requested_concurrently_up_to_max_concurrency():
    with ChatServer(lambda seen, n: Reply(200, ok('{"answer": "yes"}').body, delay_s=0.3)) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode="per_check", max_concurrency=2, **FAST)
        out = judge.judge([solid("white")] * 4, ["p"] * 4, [[CHECKS[0]]] * 4)
    assert server.max_in_flight == 2
    assert [row[0].answer for row in out] == ["yes"] * 4


def test_empty_check_lists_send_nothing():
    with ChatServer(lambda seen, n: ok("{}")) as server:
        out = VLMJudge(base_url=server.base_url, model="m", **FAST).judge([solid("white")], ["p"], [[]])
    assert out == [[]] and server.seen == []


def test_image_is_downscaled_to_max_side():
    with ChatServer(lambda seen, n: ok('{"1": {"result": false}}')) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", image_max_side=50, **FAST)
        judge.judge([solid("white", (200, 100))], ["p"], [CHECKS[:1]])
    assert server.seen[0].image.size == (50, 25)


def test_lenient_text_changes_only_the_text_rule():
    strict = VLMJudge(model="m", lenient_text=False).per_image_system
    lenient = VLMJudge(model="m", lenient_text=True).per_image_system
    assert "trailing" not in strict and "trailing" in lenient
    assert lenient.startswith(strict.split("- Text statements")[0])


def test_bad_constructor_args_raise():
    with pytest.raises(ValueError, match="mode must be one of"):
        VLMJudge(model="m", mode="per_question")
    with pytest.raises(ValueError, match="base_url"):
        VLMJudge(base_url="127.0.0.1:8000/v1", model="m")
    with pytest.raises(ValueError, match="2 images, 1 prompts"):
        VLMJudge(model="m").judge([solid("white")] * 2, ["p"], [[], []])


def test_parse_json_object_variants():
    assert parse_json_object('{"a": 1}') == {"a": 1}
    assert parse_json_object('Answer:\n```json\n{"a": [1, 2]}\n```\nDone.') == {"a": [1, 2]}
    assert parse_json_object('prefix {"a": {"b": true}} suffix') == {"a": {"b": True}}
    assert parse_json_object("{'1': {'result': True, 'reason': None}}") == {"1": {"result": True, "reason": None}}
    assert parse_json_object("[1, 2]") is None
    assert parse_json_object("no braces here") is None
    assert parse_json_object('{"a": ') is None


def test_parsers_on_bare_booleans_and_words():
    out = parse_per_image('{"1": false, "2": {"result": "yes"}, "3": {"result": 1}}', CHECKS, "j")
    assert [v.answer for v in out] == ["no", "yes", "withheld"]
    out = parse_per_image("{1: {'result': True, 'reason': 'ok'}, 2: False}", CHECKS, "j")
    assert [(v.answer, v.reason) for v in out] == [
        ("yes", "ok"),
        ("no", ""),
        ("withheld", "no answer for statement 3 in the reply"),
    ]
    assert parse_per_check('{"answer": true, "reason": "ok"}', CHECKS[0], "j").answer == "yes"
    assert parse_per_check('{"answer": "yes", "reason": "unclosed', CHECKS[0], "j").answer == "yes"


def test_client_raises_chat_error_on_empty_message():
    with ChatServer(lambda seen, n: ok(None)) as server:
        client = ChatClient(base_url=server.base_url, model="m", api_key_env=None)
        with pytest.raises(ChatError, match=re.escape("empty message (finish_reason='stop')")):
            client.chat([{"role": "user", "content": "hi"}], max_tokens=8)


def test_image_data_url_roundtrip_keeps_small_images():
    image = Image.fromarray(np.arange(48 * 3, dtype=np.uint8).reshape(4, 12, 3))
    url = image_data_url(image, max_side=64)
    back = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert back.size == (12, 4) and np.array_equal(np.asarray(back), np.asarray(image))


# ---- p_yes mode: one answer token with logprobs ------------------------------------------------


def logprob_reply(text: str, top: list[tuple[str, float]]) -> Reply:
    """A one-token chat completion whose first token has ``top`` = [(token, probability)]."""
    content = [
        {
            "token": text,
            "logprob": math.log(top[0][1]),
            "top_logprobs": [{"token": t, "logprob": math.log(p), "bytes": list(t.encode())} for t, p in top],
        }
    ]
    return Reply(
        200,
        {
            "id": "x",
            "object": "chat.completion",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "logprobs": {"content": content},
                    "finish_reason": "length",
                }
            ],
        },
    )


def test_p_yes_mode_reads_yes_no_variants_from_top_logprobs():
    # Per question, the top-5 first-token distribution the server reports (probabilities).
    tops = {
        "There are three bars.": [(" Yes", 0.5), ("yes", 0.1), ("YES", 0.05), ("No", 0.25), ("Maybe", 0.1)],
        "The legend is at the bottom.": [("No", 0.6), (" no", 0.2), ("Ġyes", 0.1), ("The", 0.1)],
    }

    def respond(seen, n):
        question = next(q for q in tops if q in seen.text)
        return logprob_reply(tops[question][0][0], tops[question])

    with ChatServer(respond) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode="p_yes", **FAST)
        [out] = judge.judge([solid((0, 0, 255))], ["a bar chart"], [CHECKS[1:]])
    # hand-computed: (0.5 + 0.1 + 0.05) / (0.65 + 0.25) and 0.1 / (0.1 + 0.8)
    assert out[0].p_yes == pytest.approx(0.65 / 0.90, abs=1e-9) and out[0].answer == "yes"
    assert out[1].p_yes == pytest.approx(0.1 / 0.9, abs=1e-9) and out[1].answer == "no"
    assert [v.evidence for v in out] == [
        {"p_yes_source": "logprobs", "answer_mass": pytest.approx(0.90)},
        {"p_yes_source": "logprobs", "answer_mass": pytest.approx(0.90)},
    ]
    assert judge.calls == 2 and len(server.seen) == 2
    for seen in server.seen:
        assert seen.body["max_tokens"] == 1 and seen.body["logprobs"] is True and seen.body["top_logprobs"] == 20
        parts = seen.body["messages"][-1]["content"]
        assert [p["type"] for p in parts] == ["image_url", "text"]  # image first, question last
        assert parts[1]["text"].endswith("Answer Yes or No.") and "a bar chart" in parts[1]["text"]
    # the two requests about one image share everything before the question (prefix caching)
    a, b = (json.dumps(s.body["messages"]) for s in server.seen)
    assert a[: a.index("Question:")] == b[: b.index("Question:")]


def test_p_yes_threshold_decides_the_answer():
    with ChatServer(lambda seen, n: logprob_reply("Yes", [("Yes", 0.6), ("No", 0.4)])) as server:
        [[v]] = VLMJudge(base_url=server.base_url, model="m", mode="p_yes", threshold=0.7, **FAST).judge(
            [solid("white")], ["p"], [[CHECKS[0]]]
        )
    assert v.p_yes == pytest.approx(0.6) and v.answer == "no"


def test_p_yes_falls_back_to_the_hard_answer_when_the_server_sends_no_logprobs():
    with ChatServer(lambda seen, n: ok("Yes" if "three bars" in seen.text else "No")) as server:
        [out] = VLMJudge(base_url=server.base_url, model="m", mode="p_yes", **FAST).judge(
            [solid("white")], ["p"], [CHECKS]
        )
    assert [v.answer for v in out] == ["no", "yes", "no"]
    assert all(v.p_yes is None for v in out)
    assert all(v.evidence == {"p_yes_source": "text", "logprobs": "ignored by the server"} for v in out)
    assert all(
        v.reason == "hard answer from the text: the server ignored logprobs=true (transformers serve does)" for v in out
    )


def test_p_yes_require_logprobs_makes_a_reply_without_them_a_failed_call(caplog):
    with ChatServer(lambda seen, n: ok("Yes")) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode="p_yes", require_logprobs=True, **FAST)
        [out] = judge.judge([solid("white")], ["p"], [CHECKS])
    assert all(v.answer == "withheld" and v.call_failed and v.p_yes is None for v in out)
    assert all(v.reason.endswith("and require_logprobs=true: no p_yes") for v in out)
    with pytest.raises(ValueError, match="require_logprobs must be true or false"):
        VLMJudge(base_url="http://127.0.0.1:1/v1", model="m", mode="p_yes", require_logprobs="yes")


def test_the_judge_summary_counts_p_yes_read_from_text(capsys, tmp_path):
    from evaluation.judge_cli import print_summary, summarize
    from rewards.rubric import Item, Rubric

    with ChatServer(lambda seen, n: ok("Yes")) as server:
        [out] = VLMJudge(base_url=server.base_url, model="m", mode="p_yes", **FAST).judge(
            [solid("white")], ["p"], [CHECKS]
        )
    from rewards.rubric import Criterion

    item = Item("1", "p", Rubric((Criterion("all", tuple(CHECKS)),)))
    summary = summarize([(item, {v.check_id: v for v in out})], [], 1, None, 0.1, True)
    assert summary["p_yes_from_text"] == len(CHECKS)
    print_summary(summary, tmp_path)
    assert f"p_yes: {len(CHECKS)} verdicts are hard answers from the reply's text" in capsys.readouterr().out


def test_p_yes_without_logprobs_warns_once(caplog):
    with ChatServer(lambda seen, n: ok("No")) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode="p_yes", **FAST)
        with caplog.at_level("WARNING", logger="rewards.judges.vlm"):
            judge.judge([solid("white"), solid("black")], ["p", "q"], [CHECKS, CHECKS])
    warned = [r.getMessage() for r in caplog.records if "p_yes falls back" in r.getMessage()]
    assert len(warned) == 1 and "require_logprobs=true makes this an error" in warned[0]


def test_p_yes_without_yes_no_tokens_is_withheld_whatever_the_text():
    # the log-probs say where the model's mass is: none on the answers, so the text "Yes" is no answer
    replies = iter([logprob_reply("Yes", [("Sure", 0.9), ("Ok", 0.1)]), logprob_reply("The", [("The", 1.0)])])
    with ChatServer(lambda seen, n: next(replies)) as server:
        [out] = VLMJudge(base_url=server.base_url, model="m", mode="p_yes", max_concurrency=1, **FAST).judge(
            [solid("white")], ["p"], [CHECKS[:2]]
        )
    assert [v.answer for v in out] == ["withheld", "withheld"] and all(v.p_yes is None for v in out)
    assert out[0].reason.startswith("Yes/No mass 0.00e+00 among the top 2 logprobs is below min_answer_mass=0.5")
    assert "first token 'The'" in out[1].reason


def test_p_yes_request_failure_is_withheld_with_the_error():
    with ChatServer(lambda seen, n: Reply(503, {"error": "overloaded"})) as server:
        [[v]] = VLMJudge(base_url=server.base_url, model="m", mode="p_yes", **FAST).judge(
            [solid("white")], ["p"], [[CHECKS[0]]]
        )
    assert v.answer == "withheld" and v.reason.startswith("request failed: ") and "HTTP 503" in v.reason


def test_checks_of_one_image_run_concurrently_up_to_the_limit():
    with ChatServer(
        lambda seen, n: Reply(200, logprob_reply("Yes", [("Yes", 0.9), ("No", 0.1)]).body, delay_s=0.2)
    ) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode="p_yes", max_concurrency=3, **FAST)
        [out] = judge.judge([solid("white")], ["p"], [CHECKS * 2])
    assert server.max_in_flight == 3 and len(out) == 6 and judge.calls == 6


# ---- self-consistency --------------------------------------------------------------------------


def test_votes_by_samples_take_the_majority_and_count_the_calls():
    answers = iter(["yes", "no", "yes"])
    lock = __import__("threading").Lock()

    def respond(seen, n):
        with lock:
            return ok(json.dumps({"answer": next(answers), "reason": "r"}))

    with ChatServer(respond) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode="per_check", votes=3, vote_temperature=0.9, **FAST)
        [[v]] = judge.judge([solid("white")], ["p"], [[CHECKS[0]]])
    assert judge.calls == 3 and len(server.seen) == 3
    assert all(s.body["temperature"] == 0.9 for s in server.seen)
    assert v.answer == "yes" and sorted(v.evidence["votes"]) == ["no", "yes", "yes"]
    assert v.evidence["agreement"] == pytest.approx(2 / 3) and v.p_yes == pytest.approx(2 / 3)


def test_votes_by_paraphrases_send_distinct_phrasings_at_temperature_0():
    def respond(seen, n):
        p = 0.9 if "Is the following true" in seen.text else 0.3
        return logprob_reply("Yes", [("Yes", p), ("No", 1 - p)])

    with ChatServer(respond) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode="p_yes", votes=3, vote_by="paraphrases", **FAST)
        [[v]] = judge.judge([solid("white")], ["p"], [[CHECKS[0]]])
    assert len({s.text for s in server.seen}) == 3 and all(s.body["temperature"] == 0 for s in server.seen)
    # votes: 0.3 -> no, 0.9 -> yes, 0.3 -> no; p_yes is the mean of the votes' p_yes
    assert v.answer == "no" and v.evidence["agreement"] == pytest.approx(2 / 3)
    assert v.p_yes == pytest.approx((0.3 + 0.9 + 0.3) / 3)


def test_all_votes_failing_keeps_the_request_error():
    with ChatServer(lambda seen, n: Reply(500, {"error": "down"})) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode="p_yes", votes=2, **FAST)
        [[v]] = judge.judge([solid("white")], ["p"], [[CHECKS[0]]])
    assert v.answer == "withheld" and v.reason.startswith("request failed: ") and judge.calls == 2


def test_bad_vote_and_p_yes_options_raise():
    for kwargs, match in [
        (dict(votes=0), "votes"),
        (dict(vote_by="x"), "vote_by"),
        (dict(threshold=2.0), "threshold"),
        (dict(top_logprobs=0), "top_logprobs"),
        (dict(mode="x"), "mode"),
    ]:
        with pytest.raises(ValueError, match=match):
            VLMJudge(**kwargs, **FAST)


# ---- a server that is still loading, and one whose context is too short (issue 21) ----------------
def test_wait_ready_s_polls_the_models_endpoint_before_the_first_request():
    from rewards.models.openai_client import ChatClient

    with ChatServer(lambda seen, n: ok("fine"), models_not_ready=2) as server:
        client = ChatClient(base_url=server.base_url, model="m", api_key_env=None, wait_ready_s=10)
        assert client.chat([{"role": "user", "content": "hi"}], max_tokens=4) == "fine"
        assert client.chat([{"role": "user", "content": "again"}], max_tokens=4) == "fine"
        assert server.model_gets == 3 and len(server.seen) == 2  # polled once, until ready

    with ChatServer(lambda seen, n: ok("fine"), models_not_ready=1000) as server:
        client = ChatClient(base_url=server.base_url, model="m", api_key_env=None, wait_ready_s=1.2)
        with pytest.raises(ChatError) as e:
            client.chat([{"role": "user", "content": "hi"}], max_tokens=4)
        assert "/v1/models: server not ready after wait_ready_s=1.2 (HTTP 503)" in str(e.value)
        assert not server.seen  # no chat request was sent to a server that was not ready
        gets, start = server.model_gets, time.monotonic()
        with pytest.raises(ChatError, match="server not ready"):  # the next item: asked once, no second wait
            client.chat([{"role": "user", "content": "next"}], max_tokens=4)
        assert server.model_gets == gets + 1 and time.monotonic() - start < 1.0
    with pytest.raises(ValueError, match="wait_ready_s must be >= 0"):
        ChatClient(base_url="http://127.0.0.1:1/v1", model="m", api_key_env=None, wait_ready_s=-1)


def test_a_context_length_error_says_what_the_request_holds():
    message = "This model's maximum context length is 4096 tokens. However, you requested 4123 tokens"
    body = {"object": "error", "message": message}
    with ChatServer(lambda seen, n: Reply(400, body)) as server:
        [out] = VLMJudge(base_url=server.base_url, model="m", mode="p_yes", **FAST).judge(
            [solid("white")], ["p"], [CHECKS[:1]]
        )
    [v] = out
    assert v.answer == "withheld" and v.call_failed
    assert "HTTP 400" in v.reason and "maximum context length is 4096" in v.reason
    assert "the whole generation prompt" in v.reason and "--max-model-len" in v.reason


# ---- response_format: the reply's JSON schema (issue 21) -----------------------------------------
def test_hard_modes_send_the_reply_schema_and_drop_it_once_when_the_server_refuses_it(caplog):
    from rewards.judges.vlm import reply_schema

    with ChatServer(lambda seen, n: ok('{"answer": "yes", "reason": "seen"}')) as server:
        [out] = VLMJudge(base_url=server.base_url, model="m", mode="per_check", **FAST).judge(
            [solid("white")], ["p"], [CHECKS[:1]]
        )
        assert out[0].answer == "yes"
        sent = server.seen[0].body["response_format"]
        assert sent == reply_schema("per_check")
        assert sent["json_schema"]["schema"]["properties"]["answer"]["enum"] == ["yes", "no"]
    per_image = reply_schema("per_image", 3)["json_schema"]["schema"]
    assert per_image["required"] == ["1", "2", "3"] and per_image["properties"]["2"]["required"] == ["result", "reason"]

    def refuses(seen, n):
        if "response_format" in seen.body:
            return Reply(400, {"object": "error", "message": "response_format is not supported"})
        return ok('{"answer": "no", "reason": "absent"}')

    with ChatServer(refuses) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode="per_check", max_concurrency=1, **FAST)
        with caplog.at_level("WARNING", logger="rewards.judges.vlm"):
            [out] = judge.judge([solid("white")], ["p"], [CHECKS])
        assert [v.answer for v in out] == ["no", "no", "no"]
        # the first check: refused with the schema, then sent without; the others: without at once
        assert ["response_format" in s.body for s in server.seen] == [True, False, False, False]
        assert judge.calls == 4
    assert sum("refused response_format" in r.getMessage() for r in caplog.records) == 1

    with ChatServer(refuses) as server:
        [out] = VLMJudge(base_url=server.base_url, model="m", mode="per_check", response_format="on", **FAST).judge(
            [solid("white")], ["p"], [CHECKS[:1]]
        )
        assert out[0].answer == "withheld" and out[0].call_failed and "HTTP 400" in out[0].reason
    with ChatServer(refuses) as server:
        VLMJudge(base_url=server.base_url, model="m", mode="per_check", response_format="off", **FAST).judge(
            [solid("white")], ["p"], [CHECKS[:1]]
        )
        assert ["response_format" in s.body for s in server.seen] == [False]
    with pytest.raises(ValueError, match="response_format must be one of"):
        VLMJudge(base_url="http://127.0.0.1:1/v1", model="m", response_format="json")


def test_a_refusal_that_is_not_about_the_schema_is_not_taken_for_one(caplog):
    with ChatServer(lambda seen, n: Reply(404, {"message": "The model `m` does not exist."})) as server:
        judge = VLMJudge(base_url=server.base_url, model="m", mode="per_check", **FAST)
        with caplog.at_level("WARNING", logger="rewards.judges.vlm"):
            [out] = judge.judge([solid("white")], ["p"], [CHECKS[:1]])
    assert out[0].call_failed and "HTTP 404" in out[0].reason and len(server.seen) == 1
    assert not any("refused response_format" in r.getMessage() for r in caplog.records)


def test_a_reply_that_answers_no_check_is_a_failed_call_in_every_mode():
    """Issue 35 case 2: an unreadable reply withheld every check as if the judge had looked."""
    for mode in ("per_image", "per_check", "p_yes"):
        with ChatServer(lambda seen, n: ok("banana, the picture is nice")) as server:
            judge = VLMJudge(base_url=server.base_url, model="m", mode=mode, **FAST)
            [out] = judge.judge([solid("white")], ["p"], [CHECKS[:2]])
        assert all(v.answer == "withheld" and v.call_failed for v in out), (mode, out)
        assert all("'banana, the picture is nice'" in v.reason for v in out), mode
    with ChatServer(lambda seen, n: ok("{" + "x" * 5_000_000)) as server:
        [out] = VLMJudge(base_url=server.base_url, model="m", **FAST).judge([solid("white")], ["p"], [CHECKS])
    assert all(v.call_failed and v.reason.startswith("reply of 5000001 characters") for v in out)


def test_a_reply_that_answers_some_checks_withholds_the_rest_as_unanswered():
    with ChatServer(lambda seen, n: ok('{"2": {"result": false, "reason": "two"}}')) as server:
        [out] = VLMJudge(base_url=server.base_url, model="m", **FAST).judge([solid("white")], ["p"], [CHECKS])
    assert [(v.answer, v.call_failed) for v in out] == [("withheld", False), ("no", False), ("withheld", False)]
    assert [v.evidence for v in out] == [{"unanswered_in_reply": True}, None, {"unanswered_in_reply": True}]
