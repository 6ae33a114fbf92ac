"""Reward functions for image GRPO (``training``), in our image-reward contract.

A reward function is any callable ``fn(prompts: list[str], images: list[PIL.Image], **columns)
-> list[float | None]`` returning one value per image. This is modelled on trl's contract but is
not it: trl's ``GRPOTrainer`` passes ``completions`` (text), not ``images``. The text policies
trained with trl reach these rewards through ``training.text.trl_reward.TrlReward``.
``columns`` carries dataset columns;
``items: list[Item]`` (one per image) when the data has rubrics. ``None`` means "no reward for
this sample": :func:`combine_rewards` turns it into NaN and leaves it out of that sample's
weighted sum (trl ``GRPOTrainer._calculate_rewards``: rewards * weights, then ``nansum``).

Shape legend: N = number of images (prompts x group size).
"""

from __future__ import annotations

import logging
import math
import numbers
import re
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Sequence

import numpy as np
import pytesseract
import torch
from PIL import Image
from rapidfuzz.distance import Levenshtein

from rewards.judges.base import Judge
from rewards.judges.cache import CachedJudge
from rewards.judges.layout import luminance, page_kind
from rewards.rubric import Item, Verdict
from rewards.scorers.item_scores import ITEM_SCORES
from rewards.text.ocr.ocr_read import ocr_lines
from rewards.text.ocr.tesseract_lines import OCRError

logger = logging.getLogger(__name__)

RewardFn = Callable[..., list]
"""``fn(prompts, images, **columns) -> list[float | None]``, one value per image."""

RUBRIC_SCORES = (*ITEM_SCORES, "p_yes")
_QUOTED = re.compile(r"\"([^\"]*)\"|“([^”]*)”")


def reward_name(fn: RewardFn) -> str:
    """The name a reward is logged under: its ``name`` attribute, else ``__name__``, else its class name."""
    name = getattr(fn, "name", None) or getattr(fn, "__name__", None) or type(fn).__name__
    return str(name)


class RubricReward:
    """Judge each image against its item's rubric and map the verdicts to a scalar.

    Args:
        judge: any ``rewards.judges.base.Judge`` (OCR, VLM, router).
        score: "pass_rate", "rubric_accuracy", "criterion_score" or "bizgeneval" (the
            ``rewards.scorers.item_scores.ITEM_SCORES`` function of that name, in [0, 1]; a withheld
            verdict counts as a failed check there), or "p_yes": the mean of the judge's
            ``p_yes`` over the checks that have one and are not withheld.
        name: the name the reward is logged under; defaults to ``"rubric_<score>"``.
        cache: path of a SQLite verdict cache (``rewards.judges.cache``), or None: an image
            judged before (same pixels, check, prompt and judge configuration) is not judged again.

    Call: ``reward(prompts, images, items=..., **columns) -> list[float | None]``; a sample gets
    None when every verdict on it is withheld, or (``p_yes``) when no verdict carries p_yes.
    After each call ``last_verdicts`` holds the verdicts (one list per image, in check order),
    for per-check pass-rate logging (:func:`tag_pass_rates`).

    Raises:
        ValueError: unknown ``score``; ``items`` missing or not one per image; the judge returned
            the wrong number of verdicts for an image.
    """

    def __init__(self, judge: Judge, score: str = "pass_rate", name: str | None = None, cache: str | None = None):
        if score not in RUBRIC_SCORES:
            raise ValueError(f"RubricReward: unknown score {score!r}; choose one of {RUBRIC_SCORES}")
        self.judge, self.score = (CachedJudge(judge, cache) if cache else judge), score
        self.name = name or f"rubric_{score}"
        self.last_verdicts: list[list[Verdict]] = []

    def __call__(
        self, prompts: Sequence[str], images: Sequence[Image.Image], items: Sequence[Item] | None = None, **columns: Any
    ) -> list[float | None]:
        if items is None:
            raise ValueError(f"reward {self.name!r} needs the 'items' column (one Item per image)")
        if not len(items) == len(images) == len(prompts):
            raise ValueError(
                f"reward {self.name!r}: got {len(prompts)} prompts, {len(images)} images and {len(items)} items"
            )
        checks = [item.rubric.checks for item in items]
        verdicts = self.judge.judge(list(images), list(prompts), checks)
        if len(verdicts) != len(images):
            raise ValueError(
                f"reward {self.name!r}: judge {self.judge.name!r} returned {len(verdicts)} verdict lists"
                f" for {len(images)} images"
            )
        out: list[float | None] = []
        for item, item_checks, vs in zip(items, checks, verdicts):
            if len(vs) != len(item_checks):
                raise ValueError(
                    f"reward {self.name!r}: judge {self.judge.name!r} returned {len(vs)} verdicts"
                    f" for the {len(item_checks)} checks of item {item.id}"
                )
            answered = [v for v in vs if v.answer != "withheld"]
            if not answered:
                out.append(None)
            elif self.score == "p_yes":
                p = [v.p_yes for v in answered if v.p_yes is not None]
                out.append(sum(p) / len(p) if p else None)
            else:
                out.append(ITEM_SCORES[self.score](item, {v.check_id: v for v in vs}))
        self.last_verdicts = verdicts
        return out


class LayoutKindReward:
    """1.0 when an image reads as the kind of page its item asks for, 0.0 when it does not; the
    held-out, kind-preserving gold judge of the layout task (``conf/rewards/layout_kind.yaml``,
    weight 0, watched by ``trainer.gold_reward=layout_kind`` and ``trainer.hacking_bounds.gold``).

    The kind read from pixels is ``rewards.judges.layout.page_kind`` (a slide: a light card in
    either half; a chart: no card and at least three separate bars). An item without a
    ``meta["kind"]`` of "slide" or "chart" gets None (no value). Only ``kinds`` count: by default
    the charts, the kind that drifted (a chart prompt drawn as a slide), so the mean over the
    validation prompts is the share of chart prompts whose sample is still a chart.

    Call: ``reward(prompts, images, items=...) -> list[float | None]``.

    Raises:
        ValueError: ``items`` missing or not one per image.
    """

    def __init__(self, kinds: Sequence[str] = ("chart",), name: str = "layout_kind"):
        self.kinds, self.name = tuple(kinds), name

    def __call__(
        self, prompts: Sequence[str], images: Sequence[Image.Image], items: Sequence[Item] | None = None, **columns: Any
    ) -> list[float | None]:
        if items is None or len(items) != len(images):
            raise ValueError(f"reward {self.name!r} needs the 'items' column, one Item per image")
        out: list[float | None] = []
        for image, item in zip(images, items):
            kind = (item.meta or {}).get("kind")
            out.append(float(page_kind(luminance(image)) == kind) if kind in self.kinds else None)
        return out


def tag_pass_rates(items: Sequence[Item], verdicts: Sequence[Sequence[Verdict]]) -> dict[str, float]:
    """Fraction of checks answered "yes" per check tag, pooled over images (withheld = not yes).

    For reward-hacking logs: e.g. ``{"title": 0.75, "data_value": 0.2}``. Checks with an empty
    tag are pooled under ``"untagged"``.
    """
    passed: dict[str, int] = {}
    total: dict[str, int] = {}
    for item, vs in zip(items, verdicts):
        by_id = {v.check_id: v for v in vs}
        for check in item.rubric.checks:
            tag = check.tag or "untagged"
            total[tag] = total.get(tag, 0) + 1
            v = by_id.get(check.id)
            passed[tag] = passed.get(tag, 0) + int(v is not None and v.answer == "yes")
    return {tag: passed[tag] / total[tag] for tag in total}


def quoted_target(prompt: str) -> str | None:
    """The text between the first pair of double quotes ("..." or “...”), or None."""
    m = _QUOTED.search(prompt)
    if m is None:
        return None
    return m.group(1) if m.group(1) is not None else m.group(2)


def ocr_text_reward(ocr_text: str | Sequence[str], target: str, case_sensitive: bool = False) -> float:
    """Flow-GRPO's OCR reward (arXiv 2505.05470 §5; flow_grpo ``ocr.py``) for one image.

    Spaces are removed from both strings (and both are lower-cased unless ``case_sensitive``);
    d = 0 if the target occurs in the OCR text, else Levenshtein(ocr, target), capped at
    len(target); reward = 1 - d / len(target), in [0, 1]. With a list of OCR lines, d is the
    smallest distance over the lines (so other text on a slide does not count against it).

    Raises:
        ValueError: the target is empty after removing spaces.
    """

    def canon(s: str) -> str:
        s = "".join(s.split())
        return s if case_sensitive else s.lower()

    tgt = canon(target)
    if not tgt:
        raise ValueError(f"OCR reward: empty target text {target!r}")
    texts = [canon(ocr_text)] if isinstance(ocr_text, str) else [canon(t) for t in ocr_text] or [""]
    d = min(0 if tgt in t else Levenshtein.distance(t, tgt) for t in texts)
    return 1.0 - min(d, len(tgt)) / len(tgt)


class OCRTextReward:
    """1 - normalised edit distance between the OCR'd text and the prompt's first quoted text.

    Flow-GRPO's text-rendering reward (:func:`ocr_text_reward`), read with tesseract through
    ``rewards.text.ocr.ocr_read.ocr_lines``. A prompt without quoted text, or an image tesseract fails
    on, gets None (no reward) and the failure is logged.

    Args:
        lang: tesseract language code(s).
        psm: tesseract page segmentation mode (3 = automatic layout, 7 = one line).
        scale: upsampling factor before OCR.
        per_line: score against the best-matching OCR line instead of all text joined
            (Flow-GRPO joins; per-line suits slides and posters with other text).
        case_sensitive: Flow-GRPO lower-cases both strings (False).
        name: the name the reward is logged under.

    Raises:
        RuntimeError: at construction, when the tesseract binary is not installed.
    """

    def __init__(
        self,
        lang: str = "eng",
        psm: int = 3,
        scale: float = 2.0,
        per_line: bool = False,
        case_sensitive: bool = False,
        name: str = "ocr",
    ):
        try:
            pytesseract.get_tesseract_version()
        except (pytesseract.TesseractNotFoundError, OSError) as e:
            raise RuntimeError(
                f"OCRTextReward needs the tesseract binary (apt-get install tesseract-ocr): {e}"
            ) from None
        self.lang, self.psm, self.scale = lang, psm, scale
        self.per_line, self.case_sensitive, self.name = per_line, case_sensitive, name

    def __call__(self, prompts: Sequence[str], images: Sequence[Image.Image], **columns: Any) -> list[float | None]:
        if len(prompts) != len(images):
            raise ValueError(f"reward {self.name!r}: got {len(prompts)} prompts but {len(images)} images")
        out: list[float | None] = []
        for prompt, image in zip(prompts, images):
            target = quoted_target(prompt)
            if target is None or not target.strip():
                out.append(None)
                continue
            try:
                lines = [line.text for line in ocr_lines(image, self.lang, self.psm, self.scale)]
            except OCRError as e:
                logger.warning("reward %r: no reward for one image: %s", self.name, e)
                out.append(None)
                continue
            text = lines if self.per_line else "".join(lines)
            out.append(ocr_text_reward(text, target, self.case_sensitive))
        return out


class RedFractionReward:
    """Fraction of pixels with R > 150, G < 100 and B < 100 (8-bit RGB), in [0, 1].

    A programmatic reward for learning tests: no judge, cheap, and a tiny model can raise it.
    """

    name = "red_fraction"

    def __call__(self, prompts: Sequence[str], images: Sequence[Image.Image], **columns: Any) -> list[float | None]:
        out: list[float | None] = []
        for image in images:
            rgb = np.asarray(image.convert("RGB"), dtype=np.int16)  # (H, W, 3)
            red = (rgb[..., 0] > 150) & (rgb[..., 1] < 100) & (rgb[..., 2] < 100)
            out.append(float(red.mean()))
        return out


def _validate(name: str, values: Any, n: int) -> list[float]:
    """One reward function's output as floats with NaN for None. Raises ValueError naming it."""
    if not isinstance(values, (list, tuple)):
        raise ValueError(f"reward function {name!r} must return a list of float | None, got {type(values).__name__}")
    if len(values) != n:
        raise ValueError(f"reward function {name!r} returned {len(values)} values for {n} samples")
    out = []
    for i, v in enumerate(values):
        if v is None:
            out.append(math.nan)
            continue
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise ValueError(
                f"reward function {name!r} returned a {type(v).__name__} for sample {i}, expected float or None"
            )
        if not math.isfinite(v):
            raise ValueError(f"reward function {name!r} returned {v} for sample {i}; return None for no reward")
        out.append(float(v))
    return out


def combine_rewards(
    reward_fns: Sequence[RewardFn],
    weights: Sequence[float],
    prompts: Sequence[str],
    images: Sequence[Image.Image],
    **columns: Any,
) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """Call every reward function and sum the weighted rewards per sample.

    total_i = nansum_k w_k * r_k,i, with r_k,i = NaN where function k returned None for sample
    i (trl ``GRPOTrainer._calculate_rewards``). A sample on which every function returned None
    gets 0 (nansum of nothing), as in trl, and a warning is logged.

    Args:
        reward_fns: callables ``fn(prompts, images, **columns)``, each with a distinct
            :func:`reward_name`.
        weights: one float per function.
        prompts, images: N each.
        columns: passed to every function (e.g. ``items``).

    Returns:
        (total: Tensor (N,) float32, per_fn: {name: Tensor (N,) float32, NaN for None}).

    Raises:
        ValueError: weights and functions differ in number, two functions share a name,
            prompts and images differ in number, or a function returns a non-list, the wrong
            number of values, a non-number, NaN or inf (the message names the function).
    """
    if len(weights) != len(reward_fns):
        raise ValueError(f"combine_rewards: {len(weights)} weights for {len(reward_fns)} reward functions")
    if len(prompts) != len(images):
        raise ValueError(f"combine_rewards: {len(prompts)} prompts but {len(images)} images")
    n = len(prompts)
    per_fn: dict[str, torch.Tensor] = {}
    for fn in reward_fns:
        name = reward_name(fn)
        if name in per_fn:
            raise ValueError(f"combine_rewards: two reward functions are named {name!r}; give one a distinct name")
        per_fn[name] = torch.tensor(
            _validate(name, fn(prompts=list(prompts), images=list(images), **columns), n), dtype=torch.float32
        )  # (N,)
    w = torch.tensor([float(x) for x in weights], dtype=torch.float32)  # (K,)
    rewards = torch.stack(list(per_fn.values()), dim=1) if per_fn else torch.zeros(n, 0)  # (N, K)
    missing = torch.isnan(rewards).all(dim=1)
    if n and missing.any():
        logger.warning(
            "combine_rewards: every reward function returned None for sample(s) %s; their reward is 0",
            torch.nonzero(missing).flatten().tolist(),
        )
    total = torch.nansum(rewards * w, dim=1)  # (N,)
    return total, per_fn


class AsyncRewarder:
    """Compute rewards in a thread pool, so batch k is scored while batch k+1 samples.

    Args:
        reward_fns, weights: as :func:`combine_rewards`.
        max_workers: threads; 1 keeps batches in submission order and never runs two judge
            calls at once.

    ``submit(prompts, images, **columns)`` returns a ``concurrent.futures.Future`` whose
    ``result()`` is ``combine_rewards``'s (total, per_fn) or re-raises its error. The lists are
    copied at submission, so the caller may reuse its buffers. Use as a context manager, or
    call ``close()``.

    Raises:
        ValueError: at construction, weights and functions differ in number or max_workers < 1.
    """

    def __init__(self, reward_fns: Sequence[RewardFn], weights: Sequence[float], max_workers: int = 1):
        if len(weights) != len(reward_fns):
            raise ValueError(f"AsyncRewarder: {len(weights)} weights for {len(reward_fns)} reward functions")
        if max_workers < 1:
            raise ValueError(f"AsyncRewarder: max_workers must be >= 1, got {max_workers}")
        self.reward_fns, self.weights = list(reward_fns), list(weights)
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="reward")

    def submit(self, prompts: Sequence[str], images: Sequence[Image.Image], **columns: Any) -> Future:
        columns = {k: list(v) if isinstance(v, (list, tuple)) else v for k, v in columns.items()}
        return self._pool.submit(combine_rewards, self.reward_fns, self.weights, list(prompts), list(images), **columns)

    def close(self) -> None:
        """Wait for pending batches and stop the threads."""
        self._pool.shutdown(wait=True)

    def __enter__(self) -> "AsyncRewarder":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
