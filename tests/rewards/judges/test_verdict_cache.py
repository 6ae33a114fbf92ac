"""The SQLite verdict cache: warm reruns make no model calls, keys separate what must differ,
withheld verdicts are never stored, and a writer killed mid-transaction leaves the cache intact."""

import dataclasses
import json
import math
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from chat_server import ChatServer, Reply, ok
from hydra import compose, initialize_config_module
from hydra.utils import instantiate
from PIL import Image

from rewards.judges.cache import CachedJudge, VerdictCache, check_spec, image_hash, judge_identity
from rewards.judges.ocr import OCRJudge
from rewards.judges.router import Router
from rewards.judges.vlm import VLMJudge
from rewards.reward_fns import RubricReward
from rewards.rubric import Check, Criterion, Item, Rubric, TextExpectation, Verdict

FAST = dict(timeout_s=5.0, max_retries=1, backoff_s=0.01, api_key_env=None)
CHECKS = [Check("1", "Is the title red?"), Check("2", "Are there three bars?"), Check("3", "Is there a legend?")]


def yes_no_logprobs(seen, n) -> Reply:
    """p_yes 0.8 for the question "Is the title red?", else 0.3, as one-token logprobs."""
    p = 0.8 if "Is the title red?" in seen.text else 0.3
    top = [{"token": "Yes", "logprob": math.log(p)}, {"token": "No", "logprob": math.log(1 - p)}]
    return Reply(
        200,
        {
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": "Yes"},
                    "logprobs": {"content": [{"token": "Yes", "logprob": math.log(p), "top_logprobs": top}]},
                }
            ]
        },
    )


def image(colour=(200, 0, 0), size=(24, 16)) -> Image.Image:
    return Image.new("RGB", size, colour)


def router(server, path, **judge_kwargs) -> Router:
    return Router(
        [VLMJudge(base_url=server.base_url, model="m", mode="p_yes", **{**FAST, **judge_kwargs})], cache=str(path)
    )


def test_warm_rerun_makes_zero_model_calls(tmp_path):
    path = tmp_path / "verdicts.sqlite"
    images, prompts, checks = [image(), image((0, 0, 200))], ["a", "b"], [CHECKS, CHECKS[:2]]
    with ChatServer(yes_no_logprobs) as server:
        cold = router(server, path).judge(images, prompts, checks)
        assert len(server.seen) == 5
        fresh_router = router(server, path)  # a new process: new objects, same file
        warm = fresh_router.judge([im.copy() for im in images], prompts, checks)
        assert len(server.seen) == 5  # not one request more
        assert fresh_router.cache.hits == 5 and fresh_router.cache.misses == 0
    assert all(v.evidence["cached"] is True for row in warm for v in row)  # not sent to the judge this time
    unmarked = [
        [{**v.to_dict(), "evidence": {k: x for k, x in v.evidence.items() if k != "cached"}} for v in row]
        for row in warm
    ]
    assert unmarked == [[v.to_dict() for v in row] for row in cold]
    assert not any("cached" in (v.evidence or {}) for row in cold for v in row)
    assert warm[0][0].p_yes == pytest.approx(0.8) and warm[0][1].p_yes == pytest.approx(0.3)


def test_only_missing_checks_are_sent(tmp_path):
    path = tmp_path / "v.sqlite"
    reply = ok('{"1": {"result": true, "reason": "r"}, "2": {"result": false, "reason": "r"}, "3": {"result": true}}')
    with ChatServer(lambda seen, n: reply) as server:
        judge = lambda: Router([VLMJudge(base_url=server.base_url, model="m", **FAST)], cache=str(path))  # noqa: E731
        judge().judge([image()], ["p"], [CHECKS[:2]])
        [out] = judge().judge([image()], ["p"], [CHECKS])
    assert len(server.seen) == 2
    assert "1. Is there a legend?" in server.seen[1].text and "Is the title red?" not in server.seen[1].text
    assert [v.answer for v in out] == ["yes", "no", "yes"]


@pytest.mark.parametrize("change", ["pixel", "question", "spec", "prompt", "judge"])
def test_a_change_to_any_key_part_misses(tmp_path, change):
    path = tmp_path / "v.sqlite"
    check = Check("1", "Is the title red?", expects=(TextExpectation("Q3"),))
    with ChatServer(yes_no_logprobs) as server:
        router(server, path).judge([image()], ["p"], [[check]])
        im, prompt, kwargs = image(), "p", {}
        if change == "pixel":
            im.putpixel((3, 3), (200, 0, 1))
        elif change == "question":
            check = Check("1", "Is the title really red?", expects=check.expects)
        elif change == "spec":
            check = Check("1", check.question, expects=(TextExpectation("Q3", region="top"),))
        elif change == "prompt":
            prompt = "q"
        else:
            kwargs = {"threshold": 0.9}
        router(server, path, **kwargs).judge([im], [prompt], [[check]])
        assert len(server.seen) == 2


def test_spec_includes_every_check_field():
    spec = json.loads(
        check_spec(
            Check("7", "q?", difficulty="hard", weight=2.0, gate=True, tag="t", expects=(TextExpectation("A", "top"),))
        )
    )
    assert set(spec) == {f.name for f in dataclasses.fields(Check)}  # fields added later are included too
    assert {k: spec[k] for k in ("id", "question", "difficulty", "weight", "gate", "tag")} == {
        "id": "7",
        "question": "q?",
        "difficulty": "hard",
        "weight": 2.0,
        "gate": True,
        "tag": "t",
    }
    assert spec["expects"][0]["text"] == "A" and spec["expects"][0]["region"] == "top"
    assert image_hash(image()) == image_hash(image().copy()) != image_hash(image().convert("RGBA"))


def test_withheld_verdicts_are_not_cached(tmp_path):
    path = tmp_path / "v.sqlite"

    def respond(seen, n):  # the first request and its one retry fail
        return Reply(503, {"error": "down"}) if n < 2 else yes_no_logprobs(seen, n)

    with ChatServer(respond) as server:
        [[first]] = router(server, path).judge([image()], ["p"], [[CHECKS[0]]])
        assert first.answer == "withheld" and first.reason.startswith("request failed")
        [[second]] = router(server, path).judge([image()], ["p"], [[CHECKS[0]]])
    assert len(server.seen) == 3 and second.answer == "yes"


def test_identity_has_configuration_but_never_the_api_key(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_KEY", "sk-very-secret-123")
    with ChatServer(yes_no_logprobs) as server:
        judge = VLMJudge(
            base_url=server.base_url, model="m", mode="p_yes", timeout_s=5.0, max_retries=1, api_key_env="JUDGE_KEY"
        )
        Router([judge], cache=str(tmp_path / "v.sqlite")).judge([image()], ["p"], [[CHECKS[0]]])
        assert server.seen[0].headers["Authorization"] == "Bearer sk-very-secret-123"
    identity = judge_identity(Router([OCRJudge(), judge]))
    text = json.dumps(identity)
    assert "sk-very-secret" not in text and "JUDGE_KEY" not in text
    assert identity["judges"][1]["model"] == "m" and identity["judges"][1]["mode"] == "p_yes"
    assert identity["judges"][0]["class"] == "rewards.judges.ocr.OCRJudge" and "psm" in identity["judges"][0]
    assert b"sk-very-secret" not in (tmp_path / "v.sqlite").read_bytes()


CRASHING_WRITER = textwrap.dedent("""
    import os, signal, sys
    from rewards.judges.cache import VerdictCache
    from rewards.rubric import Verdict
    cache = VerdictCache(sys.argv[1], {"judge": "j"})
    cache.put([(f"a{i}", Verdict(str(i), "yes", "j")) for i in range(50)])  # committed
    calls = []
    def kill():  # SQLite calls this every 100 VM steps: die inside the second transaction
        calls.append(1)
        if len(calls) > 20:
            os.kill(os.getpid(), signal.SIGKILL)
    cache._db.set_progress_handler(kill, 100)
    cache.put([(f"b{i}", Verdict(str(i), "no", "j")) for i in range(5000)])
    print("not killed")
""")


@pytest.mark.slow
def test_writer_killed_mid_transaction_leaves_the_cache_intact(tmp_path):
    path = tmp_path / "v.sqlite"
    proc = subprocess.run(
        [sys.executable, "-c", CRASHING_WRITER, str(path)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == -9, proc.stdout + proc.stderr  # SIGKILL inside put()
    assert Path(str(path) + "-journal").exists()  # the half-written transaction's journal is left behind
    cache = VerdictCache(path, {"judge": "j"})  # opening rolls the hot journal back
    assert cache._db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    found = cache.get([f"a{i}" for i in range(50)] + [f"b{i}" for i in range(5000)])
    assert sorted(found) == sorted(f"a{i}" for i in range(50))
    cache.put([("c", Verdict("c", "yes", "j"))])
    assert cache.get(["c"])["c"].answer == "yes"


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("these are my notes, not a database\n" * 20)
    with pytest.raises(ValueError, match=r"judge.cache=.*notes.txt: cannot use it as a verdict cache"):
        VerdictCache(bad, {"judge": "j"})


def test_rubric_reward_cache_gives_the_same_soft_reward_without_calls(tmp_path):
    path = tmp_path / "reward.sqlite"
    item = Item("i", "a red title", Rubric((Criterion("c", tuple(CHECKS[:2])),)))
    with ChatServer(yes_no_logprobs) as server:

        def reward():
            judge = VLMJudge(base_url=server.base_url, model="m", mode="p_yes", **FAST)
            return RubricReward(judge, score="p_yes", cache=str(path))

        cold = reward()(["a red title"], [image()], items=[item])
        warm = reward()(["a red title"], [image()], items=[item])
        assert len(server.seen) == 2
    assert cold == warm == [pytest.approx((0.8 + 0.3) / 2)]


def test_judge_cache_override_reaches_the_router_from_the_judge_configs(tmp_path):
    path = tmp_path / "hydra.sqlite"
    with initialize_config_module(config_module="conf", version_base="1.3"):
        for name in ("ocr", "ocr_vlm", "vlm", "ocr_local_vlm", "tiny"):
            cfg = compose(config_name="refine", overrides=[f"judge={name}"])
            assert cfg.judge.cache is None
        cfg = compose(
            config_name="refine", overrides=["judge=vlm", f"judge.cache={path}", "judge.judges.0.api_key_env=null"]
        )
        eval_cfg = compose(config_name="eval", overrides=["judge=ocr", f"judge.cache={path}"])
    judge = instantiate(cfg.judge)
    assert isinstance(judge.cache, VerdictCache) and judge.cache.path == path and path.exists()
    assert instantiate(eval_cfg.judge).cache.path == path


def test_cached_judge_wraps_any_judge(tmp_path):
    class Counting:
        name = "counting"

        def __init__(self):
            self._seen = 0  # private: not part of the fallback identity

        def can_answer(self, check):
            return True

        def judge(self, images, prompts, checks):
            self._seen += sum(len(cs) for cs in checks)
            return [[Verdict(c.id, "yes", self.name) for c in cs] for cs in checks]

    inner = Counting()
    for _ in range(2):
        out = CachedJudge(inner, tmp_path / "c.sqlite").judge([image()], ["p"], [CHECKS])
    assert inner._seen == 3 and [v.answer for v in out[0]] == ["yes"] * 3
    assert sqlite3.connect(tmp_path / "c.sqlite").execute("SELECT COUNT(*) FROM verdicts").fetchone() == (3,)
