"""training.text.trl_reward: completion text, the adapter's errors and logs, and trl's GRPOTrainer calling it.

The last test builds a real ``trl.GRPOTrainer`` on the tiny random Qwen2 LM (CPU, 2 steps of 8
completions) with a recording scorer whose rewards (``len(text) / 100``) and refusals (odd-length
texts) are computable from the texts it saw, so trl's own logs can be checked against them.
"""

from __future__ import annotations

import pytest

from rewards.rubric import Check, Item, Rubric
from training.text.trl_reward import Scored, TrlReward, completion_text, problem_kind


def item(item_id: str, prompt: str = 'A slide titled "Q3"') -> Item:
    return Item(item_id, prompt, Rubric.flat([Check("1", "Is the title shown?")]))


class Fixed:
    """A scorer that returns preset rewards / problems / columns and records its calls."""

    name = "fixed"

    def __init__(self, rewards, problems, columns=None):
        self.rewards, self.problems, self.columns, self.calls = rewards, problems, columns or {}, []

    def __call__(self, items, texts):
        self.calls.append(([it.id for it in items], list(texts)))
        return Scored(list(self.rewards), list(self.problems), dict(self.columns))


# ------------------------------------------------------------------------------ completion_text
def test_completion_text_of_a_string_is_the_string():
    assert completion_text("a b\n") == "a b\n"
    assert completion_text("") == ""


def test_completion_text_of_a_conversational_completion_is_its_content():
    assert completion_text([{"role": "assistant", "content": "ab"}]) == "ab"
    assert completion_text([{"role": "assistant", "content": "ab"}, {"role": "assistant", "content": "cd"}]) == "abcd"
    assert completion_text([{"role": "assistant"}]) == ""


def test_completion_text_of_content_parts_keeps_the_text_parts_only():
    parts = [{"type": "text", "text": "a"}, {"type": "image"}, {"type": "text", "text": "b"}]
    assert completion_text([{"role": "assistant", "content": parts}]) == "ab"


def test_problem_kind_names_the_known_reasons_and_else_the_first_two_words():
    assert problem_kind('dropped the quoted string "Q3"') == "dropped_quote"
    assert problem_kind("rewrite of 1200 characters is over the cap of 1000") == "over_cap"
    assert problem_kind("Empty instruction") == "empty"
    assert problem_kind("empty rewrite") == "empty"
    assert problem_kind("leaks held-out item 3 of x.jsonl (similarity 100)") == "leak"
    assert problem_kind("Too noisy: again") == "too_noisy"
    assert problem_kind("123 !!") == "refused"


# ------------------------------------------------------------------------------ errors
def call(reward, n=2, **kw):
    return reward(prompts=["p"] * n, completions=["x" * (k + 1) for k in range(n)], **kw)


def one_line_error(excinfo) -> str:
    msg = str(excinfo.value)
    assert "\n" not in msg
    assert "'fixed'" in msg  # names the reward
    return msg


def test_no_item_id_column_is_a_one_line_error():
    reward = TrlReward(Fixed([1.0, 1.0], [None, None]), {"a": item("a")})
    with pytest.raises(ValueError) as e:
        call(reward)
    assert "needs the dataset column 'item_id'" in one_line_error(e)


def test_unknown_item_id_is_a_one_line_error_naming_it():
    reward = TrlReward(Fixed([1.0, 1.0], [None, None]), {"a": item("a")})
    with pytest.raises(ValueError) as e:
        call(reward, item_id=["a", "zz"])
    assert "item_id 'zz' is not one of the run's items" in one_line_error(e)


def test_item_ids_not_one_per_completion_is_a_one_line_error():
    reward = TrlReward(Fixed([1.0, 1.0], [None, None]), {"a": item("a")})
    with pytest.raises(ValueError) as e:
        call(reward, n=2, item_id=["a"])
    assert "2 completions, 1 item ids" in one_line_error(e)


def test_scorer_returning_the_wrong_number_of_rewards_is_a_one_line_error():
    reward = TrlReward(Fixed([1.0], [None]), {"a": item("a")})
    with pytest.raises(ValueError) as e:
        call(reward, item_id=["a", "a"])
    assert "returned 1 rewards" in one_line_error(e) and "for 2 completions" in str(e.value)


def test_scorer_returning_the_wrong_number_of_problems_is_a_one_line_error_that_says_so():
    reward = TrlReward(Fixed([1.0, 1.0], [None]), {"a": item("a")})
    with pytest.raises(ValueError) as e:
        call(reward, item_id=["a", "a"])
    assert "1 problems for 2 completions" in one_line_error(e)


# ------------------------------------------------------------------------------ the call and its logs
def test_call_scores_the_items_by_id_and_logs_refusals_and_the_problem_column():
    items = {"a": item("a"), "b": item("b", "a poster")}
    problems = [
        None,
        'dropped the quoted string "Q3"',
        'dropped the quoted string "Acme" (and 1 more)',
        "empty rewrite",
    ]
    scorer = Fixed([0.5, 0.0, 0.0, None], problems, {"seed": [1, 2, 3, 4]})
    seen = []
    reward = TrlReward(scorer, items, on_scored=lambda its, texts, s: seen.append(([i.id for i in its], texts, s)))
    assert reward.__name__ == "fixed"
    metrics, extra = [], []
    completions = ["w", [{"role": "assistant", "content": "x"}], "y", [{"role": "assistant", "content": ""}]]
    out = reward(
        prompts=["p"] * 4,
        completions=completions,
        completion_ids=[[1]] * 4,
        trainer_state=None,
        item_id=["a", "b", "a", "b"],
        log_metric=lambda name, value: metrics.append((name, value)),
        log_extra=lambda name, values: extra.append((name, values)),
    )
    assert out == [0.5, 0.0, 0.0, None]
    assert scorer.calls == [(["a", "b", "a", "b"], ["w", "x", "y", ""])]
    assert metrics == [
        ("guard/fixed/refused", 0.75),
        ("guard/fixed/dropped_quote", 0.5),
        ("guard/fixed/empty", 0.25),
    ]
    assert extra == [("problem", ["", problems[1], problems[2], "empty rewrite"]), ("seed", [1, 2, 3, 4])]
    assert seen[0][0] == ["a", "b", "a", "b"] and seen[0][1] == ["w", "x", "y", ""]
    assert seen[0][2].rewards == [0.5, 0.0, 0.0, None]


def test_nothing_refused_logs_a_zero_share_and_no_kinds():
    reward = TrlReward(Fixed([0.25, 0.75], [None, None]), {"a": item("a")})
    metrics = []
    assert call(reward, item_id=["a", "a"], log_metric=lambda n, v: metrics.append((n, v))) == [0.25, 0.75]
    assert metrics == [("guard/fixed/refused", 0.0)]


# ------------------------------------------------------------------------------ trl calls it
class Recording:
    """Rewards ``len(text) / 100``; refuses (problem "odd length") the texts of odd length."""

    name = "recording"

    def __init__(self):
        self.calls = []

    def __call__(self, items, texts):
        scored = Scored([len(t) / 100 for t in texts], ["odd length" if len(t) % 2 else None for t in texts])
        self.calls.append((list(items), list(texts), scored))
        return scored


class Spy(TrlReward):
    """TrlReward that also keeps what trl passed it (prompts, completion ids, column names)."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.seen = []

    def __call__(self, prompts, completions, item_id=None, log_extra=None, log_metric=None, **kwargs):
        self.seen.append({"prompts": prompts, "item_id": list(item_id), "kwargs": kwargs})
        return super().__call__(prompts, completions, item_id, log_extra, log_metric, **kwargs)


def test_grpo_trainer_calls_the_reward_with_the_rows_items_and_logs_what_it_returned(tmp_path):
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from rewards.models.tiny_lm import tiny_qwen2_lm
    from rewards.rewriting import rewrite_messages
    from training.procedural.data import make_dataset

    train, val = make_dataset(12, 0, val_fraction=0.25)
    items = {it.id: it for it in train + val}
    rows = [{"prompt": rewrite_messages(it.prompt), "item_id": it.id} for it in train[:8]]
    row_ids = {r["item_id"] for r in rows}
    scorer = Recording()
    reward = Spy(scorer, items)
    model, tok = tiny_qwen2_lm()
    args = GRPOConfig(
        output_dir=str(tmp_path),
        use_cpu=True,
        bf16=False,
        num_generations=4,
        per_device_train_batch_size=8,
        max_completion_length=8,
        max_steps=2,
        report_to=[],
        save_strategy="no",
        logging_steps=1,
    )
    trainer = GRPOTrainer(
        model=model, reward_funcs=[reward], args=args, train_dataset=Dataset.from_list(rows), processing_class=tok
    )
    trainer.train()

    # one reward call per step, 8 completions each: 2 rows x 4 generations
    assert len(scorer.calls) == 2 and len(reward.seen) == 2
    for (got_items, texts, _), seen in zip(scorer.calls, reward.seen):
        ids = [it.id for it in got_items]
        assert len(texts) == 8 and ids == seen["item_id"]
        assert set(ids) <= row_ids
        assert ids[0] == ids[1] == ids[2] == ids[3] and ids[4] == ids[5] == ids[6] == ids[7]  # groups of 4
        # each item is the one of the row the prompt came from
        assert [p for p in seen["prompts"]] == [rewrite_messages(it.prompt) for it in got_items]
        # the texts are the decoded completions
        completion_ids = seen["kwargs"]["completion_ids"]
        assert texts == tok.batch_decode(completion_ids, skip_special_tokens=True)
        assert {"trainer_state", "completion_ids"} <= set(seen["kwargs"])

    logged = [h for h in trainer.state.log_history if "rewards/recording/mean" in h]
    assert len(logged) == 2
    for h, (_, texts, scored) in zip(logged, scorer.calls):
        assert h["rewards/recording/mean"] == pytest.approx(sum(len(t) for t in texts) / 100 / 8, abs=1e-6)
        assert h["rewards/recording/mean"] == pytest.approx(sum(scored.rewards) / 8, abs=1e-6)
        assert h["guard/recording/refused"] == pytest.approx(sum(len(t) % 2 for t in texts) / 8)
    # the problem column reached trl's completions table (it keeps the last batch)
    last = scorer.calls[-1][2]
    assert list(trainer._logs["extra"]["problem"])[-8:] == [p or "" for p in last.problems]
