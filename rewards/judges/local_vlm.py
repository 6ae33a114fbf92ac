"""An open VLM judge run in-process with transformers: p_yes read from next-token logits.

For users without a vLLM server. The default is Qwen/Qwen2.5-VL-7B-Instruct, the open judge
OneIG-Bench uses. Each (image, check) pair is one forward pass over the chat prompt
``<image> <question> Answer Yes or No.``; the next-token logits l give

    p_yes = sum_{y in Y} e^{l_y} / (sum_{y in Y} e^{l_y} + sum_{n in N} e^{l_n})

where Y are the token ids of "Yes" / " Yes" and N those of "No" / " No" (``answer_token_ids``),
i.e. a softmax restricted to the two answers, so p_yes + p_no = 1. This normalised form is what
we follow; VQAScore (Lin et al. 2024, "Evaluating Text-to-Visual Generation with Image-to-Text
Generation", §3) reads P("Yes") from the same next-token distribution over the whole vocabulary.
As the normalised form alone reads a model that wants to say something else ("I", "Sorry") from
the residue left on Yes and No, the answers' share of the whole distribution

    m = (sum_{y in Y} e^{l_y} + sum_{n in N} e^{l_n}) / sum_{v in vocabulary} e^{l_v}

must be at least ``min_answer_mass`` (a rule of ours, as in ``rewards.judges.vlm``): below it
the check is withheld, the reason naming m.

Shared-prefix scoring (``shared_prefix=True``, the default): every check of one image has the
same prompt up to the question (chat template start, system prompt if the template has one,
the image tokens), so the judge runs that prefix once per image (vision tower + prefill, keeping
the KV cache) and then scores the image's questions ``batch_size`` at a time from a copy of
that cache: the questions' tokens are packed into one sequence (no padding) under a
block-diagonal causal mask, each question with 3-D (M-RoPE) positions continuing after the
image's (Qwen2-VL §2.1). The p_yes values equal those of one
full forward pass per check up to float rounding; the cost is one image encoding per image
instead of one per check. ``shared_prefix=False`` runs the full prompt per (image, check) row.

``tiny=True`` builds a random-weight Qwen2.5-VL in code (``rewards.models.tiny_vlm.tiny_qwen2_5_vl``)
so tests and the ``tiny`` Hydra choice run the same code path offline.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import logging
from typing import Any, Sequence

import torch
from PIL import Image

from rewards.judges.vlm import PARAPHRASES, majority
from rewards.models import devices
from rewards.models.qwen_vl import check_model_available, fit_image, load_qwen2_5_vl
from rewards.rubric import Check, Verdict, withheld

logger = logging.getLogger(__name__)

QUESTION_SUFFIX = "Answer Yes or No."
_MARKER = "\x00question\x00"
YES_WORDS = ("Yes", " Yes")
NO_WORDS = ("No", " No")


def answer_token_ids(tokenizer: Any, words: Sequence[str]) -> list[int]:
    """The token ids that stand for an answer, e.g. ``words=("Yes", " Yes")``.

    The ids of the words that are one token each (real Qwen tokenizers: both variants). When no
    word is one token (a tiny byte-level tokenizer with no merges), the first token of the first
    word ("Y" for "Yes") stands for the answer.
    """
    encoded = [tokenizer.encode(word, add_special_tokens=False) for word in words]
    ids = [e[0] for e in encoded if len(e) == 1]
    return list(dict.fromkeys(ids)) if ids else [encoded[0][0]]


def p_yes_from_logits(logits: torch.Tensor, yes_ids: Sequence[int], no_ids: Sequence[int]) -> torch.Tensor:
    """Softmax restricted to the answer tokens (formula in the module docstring).

    Args:
        logits: ``(B, V)`` next-token logits, any float dtype.
        yes_ids, no_ids: token ids of the "yes" and "no" answers (disjoint).

    Returns:
        ``(B,)`` float32 p_yes in [0, 1].
    """
    logits = logits.float()
    yes = torch.logsumexp(logits[:, list(yes_ids)], dim=-1)  # (B,)
    no = torch.logsumexp(logits[:, list(no_ids)], dim=-1)  # (B,)
    return torch.sigmoid(yes - no)  # = e^yes / (e^yes + e^no)


def answer_mass_from_logits(logits: torch.Tensor, yes_ids: Sequence[int], no_ids: Sequence[int]) -> torch.Tensor:
    """The answers' share m of the next-token distribution (module docstring).

    Args:
        logits: ``(B, V)`` next-token logits, any float dtype.
        yes_ids, no_ids: token ids of the "yes" and "no" answers (disjoint).

    Returns:
        ``(B,)`` float32 m in [0, 1].
    """
    logits = logits.float()
    answers = torch.logsumexp(logits[:, list(yes_ids) + list(no_ids)], dim=-1)
    return torch.exp(answers - torch.logsumexp(logits, dim=-1))


class LocalVLMJudge:
    """Judge protocol (``rewards.judges.base.Judge``) over a transformers Qwen2.5-VL run in-process.

    Answers every check (``can_answer`` is always True): "yes" iff p_yes >= ``threshold``, with
    ``Verdict.p_yes`` filled. Checks are batched across images (left padding). The model loads
    on the first ``judge`` call. The generation prompt (``prompts``) is not shown to the judge:
    each check's question is self-contained.

    Args:
        model_id (`str`, defaults to "Qwen/Qwen2.5-VL-7B-Instruct"): hub id or local folder.
        torch_dtype (`str`, defaults to "bfloat16"): weights dtype.
        device (`str`, defaults to "cuda"): torch device; "cuda" without CUDA raises RuntimeError here.
        batch_size (`int`, defaults to 4): (image, check) rows per forward pass.
        image_max_side (`int`, defaults to 768): images are shrunk to this longer side (pixels).
        tiny (`bool`, defaults to False): random-weight tiny model built in code (tests).
        threshold (`float`, defaults to 0.5): p_yes at or above it answers "yes".
        min_answer_mass (`float`, optional): the least share of the next-token distribution the
            Yes and No tokens must hold for p_yes to be an answer (below: withheld), in [0, 1].
            None: 0.5, or 0.0 with ``tiny`` (random weights put no mass on the answers).
        shared_prefix (`bool`, defaults to True): encode each image once and score its checks
            from the prefix KV cache (module docstring); ``batch_size`` is then questions packed
            into one pass. False: one full prompt per row, rows batched across images.
        votes (`int`, defaults to 1): self-consistency by paraphrase: each check is asked in
            ``votes`` phrasings (``rewards.judges.vlm.PARAPHRASES``) and the majority answer is
            kept, with ``evidence["votes"]``/``["agreement"]`` and p_yes the votes' mean. With
            the shared prefix the image is still encoded once: the cost is k x the question tokens.

    Attributes:
        calls: forward passes run so far (prefills and question batches).
        tokens: language-model tokens processed so far (prompt rows, padding included).
        answer_mass: ``(B,)`` m of the rows of the last ``score_questions`` / ``p_yes`` call (None
            until one runs; the verdicts take it from there).

    Raises:
        RuntimeError: CUDA requested but unavailable. ValueError: bad batch_size/threshold/
        min_answer_mass/dtype, or (not ``tiny``) a ``model_id`` that is neither a local folder
        nor in the Hugging Face cache while offline, nor on the Hub
        (``rewards.models.qwen_vl.check_model_available``): one line, before the first item.
    """

    def __init__(
        self,
        model_id: str = "Qwen/Qwen2.5-VL-7B-Instruct",
        torch_dtype: str = "bfloat16",
        device: str = "cuda",
        batch_size: int = 4,
        image_max_side: int = 768,
        tiny: bool = False,
        threshold: float = 0.5,
        shared_prefix: bool = True,
        votes: int = 1,
        min_answer_mass: float | None = None,
    ):
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be in [0, 1], got {threshold}")
        devices.require_device(device, "judge local_vlm", "device=cpu on that judge, e.g. judge.judges.1.device=cpu")
        devices.torch_dtype(torch_dtype)
        self.model_id, self.torch_dtype, self.device = model_id, torch_dtype, device
        self.batch_size, self.image_max_side, self.tiny, self.threshold = batch_size, image_max_side, tiny, threshold
        if not isinstance(votes, int) or votes < 1:
            raise ValueError(f"votes must be an integer >= 1, got {votes!r}")
        if min_answer_mass is None:
            min_answer_mass = 0.0 if tiny else 0.5
        if not isinstance(min_answer_mass, (int, float)) or not 0.0 <= min_answer_mass <= 1.0:
            raise ValueError(f"min_answer_mass must be in [0, 1], got {min_answer_mass!r}")
        self.min_answer_mass = min_answer_mass
        if not tiny:
            check_model_available(model_id)
        self.shared_prefix, self.votes = shared_prefix, votes
        self.name = f"local_vlm:{'tiny-qwen2.5-vl' if tiny else model_id}"
        self.model = self.processor = None
        self.yes_ids: list[int] = []
        self.no_ids: list[int] = []
        self.calls = self.tokens = 0
        self.answer_mass: torch.Tensor | None = None

    def can_answer(self, check: Check) -> bool:
        return True

    def cache_identity(self) -> dict[str, Any]:
        """What decides this judge's verdicts, for the verdict cache key. ``shared_prefix`` and
        ``batch_size`` are left out: they change the cost, not the p_yes (beyond rounding)."""
        return {
            "class": "LocalVLMJudge",
            "model": "tiny-qwen2.5-vl" if self.tiny else self.model_id,
            "torch_dtype": self.torch_dtype,
            "image_max_side": self.image_max_side,
            "threshold": self.threshold,
            "min_answer_mass": self.min_answer_mass,
            "question_suffix": QUESTION_SUFFIX,
            "votes": self.votes,
            **({"paraphrases": list(PARAPHRASES)} if self.votes > 1 else {}),
        }

    def load(self) -> None:
        """Load the model and processor and look up the answer token ids (once)."""
        if self.model is not None:
            return
        self.model, self.processor = load_qwen2_5_vl(self.model_id, self.torch_dtype, self.device, self.tiny)
        self.yes_ids = answer_token_ids(self.processor.tokenizer, YES_WORDS)
        self.no_ids = answer_token_ids(self.processor.tokenizer, NO_WORDS)
        if set(self.yes_ids) & set(self.no_ids):
            raise ValueError(f"model {self.model_id!r}: the Yes and No answers share a token id; cannot read p_yes")

    def prompt_text(self, question: str) -> str:
        """The chat-templated prompt for one check (one image placeholder, generation prompt on)."""
        content = [{"type": "image"}, {"type": "text", "text": f"{question}\n{QUESTION_SUFFIX}"}]
        messages = [{"role": "user", "content": content}]
        return self.processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)

    def prompt_parts(self) -> tuple[str, str]:
        """``(prefix, tail)`` with ``prompt_text(q) == prefix + q + tail`` for every question q:
        the prefix (up to and including the image) is shared by all checks of one image."""
        text = self.prompt_text(_MARKER)
        head, tail = text.split(_MARKER)
        return head, tail

    @torch.no_grad()
    def prefill(self, image: Image.Image) -> tuple[Any, int, int]:
        """Run the shared prefix (chat start + image) of one image once.

        Args:
            image: one RGB image, already fitted (``fit_image``).

        Returns:
            ``(cache, prefix_len, start)``: the prefix KV cache (a transformers ``Cache``, batch
            1), its length in tokens, and the M-RoPE position of the first token after it.
        """
        self.load()
        head, _ = self.prompt_parts()
        inputs = self.processor(text=[head], images=[image], return_tensors="pt").to(self.model.device)
        prefix_len = inputs["input_ids"].shape[1]
        out = self.model(**inputs, use_cache=True, logits_to_keep=1)
        self.calls, self.tokens = self.calls + 1, self.tokens + prefix_len
        cache = out.cache if getattr(out, "cache", None) is not None else out.past_key_values
        # Text after the image continues at the image's M-RoPE offset: the model stores
        # rope_deltas on the prefill (position of token t = t + delta).
        return cache, prefix_len, prefix_len + int(self.model.model.rope_deltas.reshape(-1)[0])

    @torch.no_grad()
    def score_questions(self, prefix: tuple[Any, int, int], questions: Sequence[str]) -> torch.Tensor:
        """p_yes of B questions in one forward pass from a ``prefill`` result (not modified).

        Returns:
            ``(B,)`` float32 p_yes in [0, 1], on the CPU.
        """
        _, tail = self.prompt_parts()
        tokenizer = self.processor.tokenizer
        return self._score_suffixes(
            [tokenizer(q + tail, add_special_tokens=False)["input_ids"] for q in questions], *prefix
        )

    def p_yes_shared(self, image: Image.Image, questions: Sequence[str]) -> torch.Tensor:
        """p_yes of every question about one image: one ``prefill``, then ``score_questions``
        on ``batch_size`` questions at a time. Returns ``(Q,)`` float32 on the CPU; raises
        whatever the model raises."""
        prefix = self.prefill(image)
        parts = [
            self.score_questions(prefix, questions[lo : lo + self.batch_size])
            for lo in range(0, len(questions), self.batch_size)
        ]
        return torch.cat(parts) if parts else torch.zeros(0)

    def _score_suffixes(self, rows: list[list[int]], prefix_cache: Any, prefix_len: int, start: int) -> torch.Tensor:
        """p_yes ``(B,)`` of B question-token rows continued from a copy of ``prefix_cache``.

        The rows are packed into one sequence of sum(len) tokens (no padding). A 4-D additive
        attention mask lets each token see the whole prefix and the earlier tokens of its own
        row only, and each row's positions restart at ``start``, so every row is computed
        exactly as if it followed the prefix alone; p_yes is read at each row's last token.
        """
        device, dtype = self.model.device, self.model.dtype
        ids = torch.tensor([t for r in rows for t in r], device=device)[None]  # (1, S)
        seg = torch.cat([torch.full((len(r),), k, device=device) for k, r in enumerate(rows)])  # (S,) row of each token
        offset = torch.cat([torch.arange(len(r), device=device) for r in rows])  # (S,) index within its row
        own_row = (seg[:, None] == seg[None, :]) & (offset[None, :] <= offset[:, None])  # (S, S)
        allowed = torch.cat([torch.ones(len(seg), prefix_len, dtype=torch.bool, device=device), own_row], dim=1)
        mask = torch.zeros(allowed.shape, dtype=dtype, device=device).masked_fill(~allowed, torch.finfo(dtype).min)
        positions = (start + offset)[None, None].expand(3, 1, -1)  # (3, 1, S): M-RoPE t/h/w equal for text
        last = torch.tensor([len(r) for r in rows], device=device).cumsum(0) - 1  # (B,) each row's last token
        cache = copy.deepcopy(prefix_cache)
        kwargs = {"cache" if "cache" in inspect.signature(self.model.forward).parameters else "past_key_values": cache}
        logits = self.model(
            input_ids=ids,
            attention_mask=mask[None, None],
            position_ids=positions,
            use_cache=True,
            logits_to_keep=last,
            **kwargs,
        ).logits[0]  # (B, V)
        self.calls, self.tokens = self.calls + 1, self.tokens + ids.shape[1]
        self.answer_mass = answer_mass_from_logits(logits, self.yes_ids, self.no_ids).cpu()
        return p_yes_from_logits(logits, self.yes_ids, self.no_ids).cpu()

    @torch.no_grad()
    def p_yes(self, images: Sequence[Image.Image], questions: Sequence[str]) -> torch.Tensor:
        """One batched forward pass: p_yes of ``questions[b]`` about ``images[b]``.

        Args:
            images: B RGB images, already fitted (``fit_image``).
            questions: B yes/no questions.

        Returns:
            ``(B,)`` float32 p_yes in [0, 1], on the CPU.
        """
        self.load()
        texts = [self.prompt_text(q) for q in questions]
        inputs = self.processor(text=texts, images=list(images), padding=True, return_tensors="pt")
        inputs = inputs.to(self.model.device)
        logits = self.model(**inputs, logits_to_keep=1).logits[:, -1, :]  # (B, V)
        self.calls, self.tokens = self.calls + 1, self.tokens + inputs["input_ids"].numel()
        self.answer_mass = answer_mass_from_logits(logits, self.yes_ids, self.no_ids).cpu()
        return p_yes_from_logits(logits, self.yes_ids, self.no_ids).cpu()

    def judge(
        self,
        images: Sequence[Image.Image],
        prompts: Sequence[str],
        checks: Sequence[Sequence[Check]],
    ) -> list[list[Verdict]]:
        """Answer ``checks[i]`` about ``images[i]`` (see ``rewards.judges.base.Judge.judge``).

        An image that cannot be decoded (or whose prefill fails) withholds all its checks; a
        forward pass that fails even for one row alone withholds that row's check. The reason
        names the error; the other images are still judged.
        """
        if not len(images) == len(prompts) == len(checks):
            raise ValueError(
                f"{self.name}: got {len(images)} images, {len(prompts)} prompts, {len(checks)} check lists"
            )
        if self.votes == 1:
            return self._judge_once(images, checks)
        k = self.votes
        asked = [
            [
                dataclasses.replace(c, question=PARAPHRASES[v % len(PARAPHRASES)].format(question=c.question))
                for c in cs
                for v in range(k)
            ]
            for cs in checks
        ]
        flat = self._judge_once(images, asked)
        return [
            [majority(row[j * k : (j + 1) * k], c, self.name) for j, c in enumerate(cs)]
            for row, cs in zip(flat, checks)
        ]

    def _judge_once(self, images: Sequence[Image.Image], checks: Sequence[Sequence[Check]]) -> list[list[Verdict]]:
        """One verdict per check, each asked once (shared-prefix or row path)."""
        self.load()
        verdicts: list[list[Verdict | None]] = [[None] * len(cs) for cs in checks]
        rows: list[tuple[int, int, Image.Image]] = []  # (image index, check index, fitted image)
        for i, (image, cs) in enumerate(zip(images, checks)):
            try:
                fitted = fit_image(image, self.image_max_side)
            except Exception as e:
                verdicts[i] = [
                    withheld(c, self.name, f"image {i} unreadable: {type(e).__name__}: {e}", call_failed=True)
                    for c in cs
                ]
                continue
            rows += [(i, j, fitted) for j in range(len(cs))]

        if self.shared_prefix:
            return self._judge_shared(rows, checks, verdicts)
        for start in range(0, len(rows), self.batch_size):
            batch = rows[start : start + self.batch_size]
            for (i, j, _), p in zip(batch, self._p_yes_rows(batch, checks)):
                check = checks[i][j]
                verdicts[i][j] = (
                    withheld(check, self.name, f"forward pass failed: {type(p).__name__}: {p}", call_failed=True)
                    if isinstance(p, Exception)
                    else self._verdict(check, p)
                )
        return verdicts  # type: ignore[return-value]

    def _verdict(self, check: Check, scored: tuple[float, float | None]) -> Verdict:
        """The verdict from ``(p_yes, m)`` (m None: not measured): withheld when m is below
        ``min_answer_mass``, else "yes" iff p_yes >= ``threshold``."""
        p, mass = scored
        if mass is not None and mass < self.min_answer_mass:
            return withheld(
                check,
                self.name,
                f"Yes/No mass {mass:.2e} of the next-token distribution is below "
                f"min_answer_mass={self.min_answer_mass:g}: no answer",
            )
        note = f" (Yes/No mass {mass:.4f})" if mass is not None else ""
        return Verdict(check.id, "yes" if p >= self.threshold else "no", self.name, f"p_yes={p:.4f}{note}", p_yes=p)

    def _scored(self, ps: torch.Tensor) -> list[tuple[float, float | None]]:
        """``(p_yes, m)`` per row of the last scoring call's result ``ps`` (m None when that call
        left no ``answer_mass`` of the same length)."""
        mass, self.answer_mass = self.answer_mass, None
        masses = mass.tolist() if mass is not None and len(mass) == len(ps) else [None] * len(ps)
        return list(zip(ps.tolist(), masses))

    def _judge_shared(self, rows, checks, verdicts) -> list[list[Verdict]]:
        """Fill ``verdicts`` image by image: one prefill per image, its questions in batches of
        ``batch_size``; a failed batch is retried one question at a time."""
        by_image: dict[int, Image.Image] = {i: image for i, _, image in rows}
        for i, image in by_image.items():
            try:
                prefix = self.prefill(image)
            except Exception as e:
                verdicts[i] = [
                    withheld(c, self.name, f"forward pass failed: {type(e).__name__}: {e}", call_failed=True)
                    for c in checks[i]
                ]
                continue
            for lo in range(0, len(checks[i]), self.batch_size):
                chunk = checks[i][lo : lo + self.batch_size]
                for j, c, p in zip(range(lo, lo + len(chunk)), chunk, self._score_rows(prefix, chunk)):
                    verdicts[i][j] = (
                        withheld(c, self.name, f"forward pass failed: {type(p).__name__}: {p}", call_failed=True)
                        if isinstance(p, Exception)
                        else self._verdict(c, p)
                    )
        return verdicts  # type: ignore[return-value]

    def _score_rows(self, prefix, chunk: Sequence[Check]) -> list[tuple[float, float | None] | Exception]:
        try:
            return self._scored(self.score_questions(prefix, [c.question for c in chunk]))
        except Exception as e:
            if len(chunk) == 1:
                return [e]
        out: list[tuple[float, float | None] | Exception] = []
        for c in chunk:
            try:
                out += self._scored(self.score_questions(prefix, [c.question]))
            except Exception as e:
                out.append(e)
        return out

    def _p_yes_rows(self, batch, checks) -> list[tuple[float, float | None] | Exception]:
        """``(p_yes, m)`` per row of ``batch``; if the batched pass fails, each row is retried
        alone so one bad row only withholds itself."""
        questions = [checks[i][j].question for i, j, _ in batch]
        try:
            return self._scored(self.p_yes([img for _, _, img in batch], questions))
        except Exception as e:
            if len(batch) == 1:
                return [e]
        out: list[tuple[float, float | None] | Exception] = []
        for row, question in zip(batch, questions):
            try:
                out += self._scored(self.p_yes([row[2]], [question]))
            except Exception as e:
                out.append(e)
        return out
