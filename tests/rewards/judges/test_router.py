"""The router: first able judge, one batched call per judge, fall-through on withheld."""

import json

import hydra.utils
import pytest
from chat_server import ChatServer, Reply, ok
from PIL import Image

from rewards.judges.router import Router
from rewards.judges.vlm import VLMJudge
from rewards.rubric import Check, Verdict


class TableJudge:
    """A test judge answering from a table {check id: answer}, able to answer checks whose tag is
    in ``tags`` (None: every check). Records every ``judge()`` call."""

    def __init__(self, name, answers, tags=None):
        self.name, self.answers, self.tags, self.calls = name, answers, tags, []

    def can_answer(self, check):
        return self.tags is None or check.tag in self.tags

    def judge(self, images, prompts, checks):
        self.calls.append((list(images), list(prompts), [[c.id for c in cs] for cs in checks]))
        return [
            [Verdict(c.id, self.answers[c.id], self.name, f"{self.name} says {self.answers[c.id]}") for c in cs]
            for cs in checks
        ]


IMG = [Image.new("RGB", (8, 8), c) for c in ("red", "green", "blue")]
CHECKS = [
    [Check("a1", "q", tag="text"), Check("a2", "q", tag="layout"), Check("a3", "q", tag="text")],
    [Check("b1", "q", tag="layout")],
    [Check("c1", "q", tag="text")],
]


def test_each_check_goes_to_the_first_able_judge_in_one_batch_per_judge():
    ocr = TableJudge("ocr", {"a1": "yes", "a3": "no", "c1": "yes"}, tags={"text"})
    vlm = TableJudge("vlm", {"a2": "no", "b1": "yes"})
    out = Router([ocr, vlm]).judge(IMG, ["pa", "pb", "pc"], CHECKS)
    assert [[(v.check_id, v.answer, v.judge) for v in row] for row in out] == [
        [("a1", "yes", "ocr"), ("a2", "no", "vlm"), ("a3", "no", "ocr")],
        [("b1", "yes", "vlm")],
        [("c1", "yes", "ocr")],
    ]
    # one call each; each judge sees only the images that have checks for it, with their prompts
    assert ocr.calls == [([IMG[0], IMG[2]], ["pa", "pc"], [["a1", "a3"], ["c1"]])]
    assert vlm.calls == [([IMG[0], IMG[1]], ["pa", "pb"], [["a2"], ["b1"]])]


def test_withheld_falls_through_to_the_next_able_judge():
    ocr = TableJudge("ocr", {"a1": "withheld", "a3": "yes", "c1": "withheld"}, tags={"text"})
    vlm = TableJudge("vlm", {"a1": "no", "a2": "yes", "b1": "yes", "c1": "yes"})
    out = Router([ocr, vlm]).judge(IMG, ["pa", "pb", "pc"], CHECKS)
    assert [[(v.answer, v.judge) for v in row] for row in out] == [
        [("no", "vlm"), ("yes", "vlm"), ("yes", "ocr")],
        [("yes", "vlm")],
        [("yes", "vlm")],
    ]
    # the fall-through checks ride in the next judge's single batch, in their original order
    assert vlm.calls == [([IMG[0], IMG[1], IMG[2]], ["pa", "pb", "pc"], [["a1", "a2"], ["b1"], ["c1"]])]


def test_all_able_judges_withhold_keeps_their_reasons():
    ocr = TableJudge("ocr", {"a1": "withheld", "a3": "withheld", "c1": "yes"}, tags={"text"})
    vlm = TableJudge("vlm", {"a1": "withheld", "a2": "withheld", "b1": "no", "a3": "yes"})
    out = Router([ocr, vlm]).judge(IMG, ["pa", "pb", "pc"], CHECKS)
    a1, a2, a3 = out[0]
    assert (a1.answer, a1.judge, a1.reason) == ("withheld", "vlm", "ocr: ocr says withheld; vlm: vlm says withheld")
    assert (a2.answer, a2.judge, a2.reason) == ("withheld", "vlm", "vlm says withheld")  # one judge: kept as is
    assert (a3.answer, a3.judge) == ("yes", "vlm")


def test_check_no_judge_can_answer_is_withheld_and_no_empty_calls():
    ocr = TableJudge("ocr", {"a1": "yes", "a3": "yes", "c1": "yes"}, tags={"text"})
    router = Router([ocr])
    out = router.judge(IMG, ["pa", "pb", "pc"], CHECKS)
    assert (out[0][1].answer, out[0][1].judge, out[0][1].reason) == ("withheld", "router", "no judge could answer")
    assert (out[1][0].answer, out[1][0].reason) == ("withheld", "no judge could answer")
    assert len(ocr.calls) == 1 and ocr.calls[0][0] == [IMG[0], IMG[2]]
    assert router.can_answer(CHECKS[0][0]) and not router.can_answer(CHECKS[1][0])


def test_a_judge_returning_wrong_verdicts_is_an_error():
    class Broken(TableJudge):
        def judge(self, images, prompts, checks):
            return [[Verdict("zz", "yes", self.name)] for _ in checks]

    with pytest.raises(ValueError, match="judge broken returned verdicts for the wrong checks of image 0"):
        Router([Broken("broken", {})]).judge(IMG[:1], ["p"], [[Check("1", "q")]])
    with pytest.raises(ValueError, match="at least one judge"):
        Router([])


def test_router_falls_through_from_a_failing_vlm_server_to_a_working_one():
    def down(seen, n):
        return Reply(502, {"error": "bad gateway"})

    def up(seen, n):
        return ok(json.dumps({str(i): {"result": True, "reason": "seen"} for i in range(1, 4)}))

    fast = dict(timeout_s=5.0, max_retries=1, backoff_s=0.01, api_key_env=None)
    with ChatServer(down) as s_down, ChatServer(up) as s_up:
        first = VLMJudge(base_url=s_down.base_url, model="primary", **fast)
        second = VLMJudge(base_url=s_up.base_url, model="backup", **fast)
        out = Router([first, second]).judge(IMG[:1], ["p"], CHECKS[:1])[0]
    assert len(s_down.seen) == 2 and len(s_up.seen) == 1
    assert [(v.answer, v.judge) for v in out] == [("yes", "vlm:backup")] * 3


def test_hydra_instantiates_router_of_vlm_judges():
    cfg = {
        "_target_": "rewards.judges.router.Router",
        "judges": [
            {"_target_": "rewards.judges.vlm.VLMJudge", "model": "a", "mode": "per_check", "api_key_env": None},
            {
                "_target_": "rewards.judges.vlm.VLMJudge",
                "base_url": "http://127.0.0.1:9/v1",
                "model": "b",
                "max_concurrency": 2,
            },
        ],
    }
    router = hydra.utils.instantiate(cfg)
    assert [j.name for j in router.judges] == ["vlm:a", "vlm:b"]
    assert (
        router.judges[0].mode == "per_check" and router.judges[1].client.url == "http://127.0.0.1:9/v1/chat/completions"
    )
