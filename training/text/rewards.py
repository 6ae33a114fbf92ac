"""What a text policy's completion earns: the scorers behind ``training.text.trl_reward.TrlReward``.

* :class:`RewriteScorer` (``task=prompt_rewriter``, ``reward.kind=rubric``): the guards first
  (``rewards.rewriting.rewrite_problem``: every quoted string kept, not empty, within the length
  cap; and not a near copy of a held-out benchmark prompt, ``rewards.leakage.find_leaks``): a
  refused rewrite earns ``refusal_reward`` (0) and its reason is counted. The others are rendered
  by the frozen generator (the item's seed, the same for every rewrite of an item, so rewrites
  differ only by their text) and judged against the item's rubric, with the ORIGINAL prompt as
  the judge's context (``rewards.reward_fns.RubricReward``: pass rate, criterion score, ... or
  mean p_yes, as for image GRPO).
* :class:`InstructionScorer` (``task=instruction_writer``): the editor applies the instruction to
  the item's start image; the reward is the rubric score after the edit minus before (in
  [-1, 1]). An empty instruction earns 0 and is counted.
* :class:`QuoteCoverage` (``reward.kind=quote_coverage``): no image; the share of the characters
  of the prompt's quoted strings that the rewrite contains, mixed with a length target. It
  depends on the completion only and a tiny random policy can raise it in minutes: the learning
  test and CPU smoke runs use it. It is not a measure of document quality.
"""

from __future__ import annotations

import dataclasses
import zlib
from dataclasses import dataclass
from typing import Any, Sequence

from PIL import Image

from rewards.leakage import find_leaks
from rewards.reward_fns import RubricReward
from rewards.rewriting import quoted_strings, rewrite_problem
from rewards.rubric import Item, Verdict
from training.text.trl_reward import Scored


def item_seed(seed: int, item_id: str) -> int:
    """The generator seed of an item: ``seed`` + crc32 of its id (stable across runs and processes)."""
    return (seed + zlib.crc32(item_id.encode("utf-8"))) % (2**31)


class QuoteCoverage:
    """``(1 - length_weight) * coverage + length_weight * closeness`` in [0, 1].

    coverage: the mean, over the item prompt's quoted strings, of the share of each string's
    distinct characters (lower-cased, spaces ignored) that occur in the text; closeness:
    ``max(0, 1 - |len(text) - target_chars| / target_chars)``. An item with no quoted string is
    scored on closeness alone.

    Args:
        target_chars: the length the text is rewarded for approaching (characters).
        length_weight: weight of the length term, in [0, 1].
    """

    name = "quote_coverage"

    def __init__(self, target_chars: int = 64, length_weight: float = 0.3):
        if target_chars < 1 or not 0.0 <= length_weight <= 1.0:
            raise ValueError(
                f"quote_coverage: target_chars must be >= 1 and length_weight in [0, 1], "
                f"got {target_chars!r} and {length_weight!r}"
            )
        self.target_chars, self.length_weight = int(target_chars), float(length_weight)

    def score(self, prompt: str, text: str) -> float:
        """The reward of one ``text`` written for ``prompt``."""
        closeness = max(0.0, 1.0 - abs(len(text) - self.target_chars) / self.target_chars)
        wanted = [set(s.lower()) - {" "} for s in quoted_strings(prompt)]
        wanted = [w for w in wanted if w]
        if not wanted:
            return closeness
        have = set(text.lower())
        coverage = sum(len(w & have) / len(w) for w in wanted) / len(wanted)
        return (1.0 - self.length_weight) * coverage + self.length_weight * closeness

    def __call__(self, items: Sequence[Item], texts: Sequence[str]) -> Scored:
        return Scored([self.score(it.prompt, t) for it, t in zip(items, texts)], [None] * len(texts))


class RewriteScorer:
    """Guard, render and judge prompt rewrites (module docstring).

    Args:
        generator: ``refine.interfaces.Generator``-like: ``generate(prompt, seed) -> PIL image``.
        judge: a ``rewards.judges.base.Judge``.
        score: ``RubricReward``'s score ("pass_rate", "criterion_score", "rubric_accuracy",
            "bizgeneval", "p_yes").
        max_chars: length cap of a rewrite (characters; None: none).
        keep_quoted: refuse a rewrite that drops a quoted string of the original.
        heldout: ``(file, item)`` pairs (``rewards.leakage.load_heldout``): a rewrite that nearly
            copies one of their prompts is refused.
        seed: base generator seed (:func:`item_seed`).
        refusal_reward: what a refused rewrite earns.
    """

    def __init__(
        self,
        generator: Any,
        judge: Any,
        score: str = "pass_rate",
        max_chars: int | None = 1000,
        keep_quoted: bool = True,
        heldout: Sequence[tuple[str, Item]] = (),
        seed: int = 0,
        refusal_reward: float = 0.0,
    ):
        self.generator, self.rubric = generator, RubricReward(judge, score)
        self.name = self.rubric.name
        self.max_chars, self.keep_quoted, self.heldout = max_chars, keep_quoted, list(heldout)
        self.seed, self.refusal_reward = seed, float(refusal_reward)

    def problems(self, items: Sequence[Item], texts: Sequence[str]) -> list[str | None]:
        """Why each rewrite is refused (None: it is rendered)."""
        problems = [rewrite_problem(it.prompt, t, self.max_chars, self.keep_quoted) for it, t in zip(items, texts)]
        candidates = [dataclasses.replace(it, id=str(k), prompt=t) for k, (it, t) in enumerate(zip(items, texts))]
        for leak in find_leaks([c for c, p in zip(candidates, problems) if p is None], self.heldout):
            k = int(leak.train_id)
            if problems[k] is None:
                where = f"{leak.heldout_id} of {leak.heldout_file}"
                problems[k] = f"leaks held-out item {where} (similarity {leak.score:.0f})"
        return problems

    def __call__(self, items: Sequence[Item], texts: Sequence[str]) -> Scored:
        problems = self.problems(items, texts)
        rewards: list[float | None] = [self.refusal_reward] * len(texts)
        ok = [k for k, p in enumerate(problems) if p is None]
        if ok:
            images = [self.generator.generate(texts[k], item_seed(self.seed, items[k].id)) for k in ok]
            scores = self.rubric([items[k].prompt for k in ok], images, items=[items[k] for k in ok])
            for k, s in zip(ok, scores):
                rewards[k] = s
        return Scored(rewards, problems)


@dataclass
class StartState:
    """An item's image before any edit, the checks it fails there (``(check, verdict)`` with answer
    "no", as refine's loop edits them) and its rubric score (None: every verdict withheld)."""

    image: Image.Image
    failures: list[tuple[Any, Verdict]]
    score: float | None


def start_state(item: Item, image: Image.Image, rubric: RubricReward) -> StartState:
    """Judge ``image`` for ``item`` once: its failures and score (``rubric.last_verdicts``)."""
    score = rubric([item.prompt], [image], items=[item])[0]
    verdicts = {v.check_id: v for v in rubric.last_verdicts[0]}
    failures = [(c, verdicts[c.id]) for c in item.rubric.checks if c.id in verdicts and verdicts[c.id].answer == "no"]
    return StartState(image, failures, score)


class InstructionScorer:
    """Apply each instruction with the editor and score the gain (module docstring).

    Args:
        editor: ``refine.interfaces.Editor``: ``edit(image, instruction, failures, seed) -> image``.
        judge: a ``rewards.judges.base.Judge``.
        starts: item id -> :class:`StartState`.
        score: ``RubricReward``'s score.
        seed: base editor seed (:func:`item_seed`).

    A completion's reward is ``score(after) - start.score``; None when either is None (all
    withheld); 0 for an empty instruction (refused, counted).
    """

    def __init__(self, editor: Any, judge: Any, starts: dict[str, StartState], score: str = "pass_rate", seed: int = 0):
        self.editor, self.rubric, self.starts, self.seed = editor, RubricReward(judge, score), starts, seed
        self.name = f"{self.rubric.name}_gain"

    def __call__(self, items: Sequence[Item], texts: Sequence[str]) -> Scored:
        rewards: list[float | None] = []
        problems: list[str | None] = []
        for item, text in zip(items, texts):
            start = self.starts[item.id]
            if not text.strip():
                rewards.append(0.0)
                problems.append("empty instruction")
                continue
            edited = self.editor.edit(start.image, text, start.failures, item_seed(self.seed, item.id))
            after = self.rubric([item.prompt], [edited.convert("RGB")], items=[item])[0]
            rewards.append(None if after is None or start.score is None else after - start.score)
            problems.append(None)
        return Scored(rewards, problems)
