"""The LLM instruction writer against a real HTTP server on 127.0.0.1 (tests/chat_server.py)."""

import json

import hydra.utils
import numpy as np
import pytest
from chat_server import ChatServer, Reply, ok
from PIL import Image

from refine.writers.llm import LLMInstructionWriter, WriterError, parse_instructions
from rewards.rubric import Check, Criterion, Item, Rubric, TextExpectation, Verdict

FAST = dict(timeout_s=5.0, max_retries=1, backoff_s=0.01, api_key_env=None)

TITLE = Check("t1", 'The title reads "Q3 Revenue".', expects=(TextExpectation("Q3 Revenue", "top"),))
TITLE_BOLD = Check("t2", "The title is bold.")
BARS = Check("c1", "There are three bars.")
LEGEND = Check("l1", "The legend is at the bottom.")
ITEM = Item(
    "slide-7",
    "A slide titled Q3 Revenue with a 3-bar chart and a bottom legend.",
    Rubric((Criterion("title", (TITLE, TITLE_BOLD)), Criterion("chart", (BARS,)), Criterion("legend", (LEGEND,)))),
)


def no(check, reason):
    return check, Verdict(check.id, "no", "ocr", reason)


def test_request_groups_failures_per_criterion_and_reply_is_parsed():
    reply = (
        '```json\n{"instructions": ["Change the top title to read \\"Q3 Revenue\\" in bold.", '
        '"Move the legend\\n to the bottom."]}\n```'
    )
    image = Image.new("RGB", (40, 30), (10, 120, 200))
    # failures arrive out of rubric order; the chart criterion passed
    failures = [no(LEGEND, "legend is on the right"), no(TITLE, 'read "Q3 Revenu"'), no(TITLE_BOLD, "")]
    with ChatServer(lambda seen, n: ok(reply)) as server:
        writer = LLMInstructionWriter(base_url=server.base_url, model="writer-m", **FAST)
        text = writer.write(image, ITEM, failures)
    assert text == 'Change the top title to read "Q3 Revenue" in bold.\nMove the legend to the bottom.'
    assert writer.name == "llm:writer-m"
    (seen,) = server.seen
    assert seen.body["model"] == "writer-m" and seen.body["temperature"] == 0
    assert "one imperative instruction" in seen.body["messages"][0]["content"]
    expected = "\n".join(
        [
            "Original prompt:",
            ITEM.prompt,
            "",
            "Failed checks, by criterion:",
            "Criterion 1: title",
            '  - The title reads "Q3 Revenue". [required text: "Q3 Revenue"] (judge: read "Q3 Revenu")',
            "  - The title is bold.",
            "Criterion 2: legend",
            "  - The legend is at the bottom. (judge: legend is on the right)",
            "",
            "Write 2 instruction(s), one per criterion, in this order.",
        ]
    )
    assert seen.text == expected
    assert np.array_equal(np.asarray(seen.image.convert("RGB")), np.asarray(image))


@pytest.mark.parametrize(
    "reply",
    [
        '{"instructions": ["only one"]}',
        '{"instructions": ["one", "  "]}',
        '{"steps": ["a", "b"]}',
        "Make the title bold and move the legend.",
    ],
)
def test_reply_without_one_instruction_per_criterion_raises(reply):
    with ChatServer(lambda seen, n: ok(reply)) as server:
        writer = LLMInstructionWriter(base_url=server.base_url, model="m", **FAST)
        with pytest.raises(WriterError, match=r"llm:m, item slide-7: expected .* with 2 non-empty strings"):
            writer.write(Image.new("RGB", (8, 8)), ITEM, [no(TITLE, ""), no(LEGEND, "")])


def test_api_failure_raises_after_retries():
    with ChatServer(lambda seen, n: Reply(500, {"error": "boom"})) as server:
        writer = LLMInstructionWriter(base_url=server.base_url, model="m", **FAST)
        with pytest.raises(WriterError, match=r"item slide-7: request failed: .*HTTP 500"):
            writer.write(Image.new("RGB", (8, 8)), ITEM, [no(BARS, "")])
    assert len(server.seen) == 2


def test_no_failures_sends_nothing_and_unknown_check_raises():
    with ChatServer(lambda seen, n: ok("{}")) as server:
        writer = LLMInstructionWriter(base_url=server.base_url, model="m", **FAST)
        assert writer.write(Image.new("RGB", (8, 8)), ITEM, []) == ""
        with pytest.raises(ValueError, match="item 'slide-7': failed check 'zz' is not in its rubric"):
            writer.write(Image.new("RGB", (8, 8)), ITEM, [no(Check("zz", "q"), "")])
    assert server.seen == []


def test_parse_instructions_accepts_objects_and_normalises_whitespace():
    reply = json.dumps({"instructions": [{"criterion": "a", "instruction": " Fix\tthe  axis "}, "Add a legend."]})
    assert parse_instructions(reply, 2) == ["Fix the axis", "Add a legend."]
    assert parse_instructions(reply, 3) is None
    assert parse_instructions('{"instructions": [1, "x"]}', 2) is None


def test_hydra_instantiates_writer():
    writer = hydra.utils.instantiate(
        {"_target_": "refine.writers.llm.LLMInstructionWriter", "model": "w", "max_tokens": 64}
    )
    assert writer.name == "llm:w" and writer.max_tokens == 64
    assert writer.client.url == "http://127.0.0.1:8000/v1/chat/completions"
