"""An open VLM judge run in-process with transformers: p_yes read from next-token logits.

For users without a vLLM server. The default is Qwen/Qwen2.5-VL-7B-Instruct, the open judge
OneIG-Bench uses. Each (image, check) pair is one forward pass over the chat prompt
``<image> <question> Answer Yes or No.``; the next-token logits l give

    p_yes = sum_{y in Y} e^{l_y} / (sum_{y in Y} e^{l_y} + sum_{n in N} e^{l_n})

where Y are the token ids of "Yes" / " Yes" and N those of "No" / " No" (``answer_token_ids``),
i.e. a softmax restricted to the two answers, so p_yes + p_no = 1. (VQAScore, Lin et al. 2024,
reads P("Yes") from the same next-token distribution over the whole vocabulary.)

``tiny=True`` builds a random-weight Qwen2.5-VL in code (``rewards.tiny_vlm.tiny_qwen2_5_vl``)
so tests and the ``tiny`` Hydra choice run the same code path offline.
"""

from __future__ import annotations

from typing import Any, Sequence

import torch
from PIL import Image

from rewards import devices
from rewards.rubric import Check, Verdict, withheld

QUESTION_SUFFIX = "Answer Yes or No."
YES_WORDS = ("Yes", " Yes")
NO_WORDS = ("No", " No")


def load_qwen2_5_vl(model_id: str, torch_dtype: str, device: str, tiny: bool) -> tuple[Any, Any]:
    """Load a Qwen2.5-VL model (eval mode, on ``device``) and its processor (left padding).

    Args:
        model_id: a hub id or local folder, read with ``from_pretrained``; ignored when ``tiny``.
        torch_dtype: weights dtype name, e.g. "bfloat16".
        device: "cuda", "cuda:1", "cpu".
        tiny: build a random-weight model in code instead (no hub, for tests).

    Returns:
        ``(model, processor)``: a ``Qwen2_5_VLForConditionalGeneration`` and its processor.

    Raises:
        RuntimeError: CUDA requested but unavailable. ValueError: unknown dtype name.
    """
    dev, dtype = devices.require_device(device, "local_vlm", "device=cpu"), devices.torch_dtype(torch_dtype)
    if tiny:
        from rewards.tiny_vlm import tiny_qwen2_5_vl

        model, processor = tiny_qwen2_5_vl(seed=0)
        model = model.to(dtype)
    else:
        from transformers import AutoProcessor, Qwen2_5_VLForConditionalGeneration

        model = Qwen2_5_VLForConditionalGeneration.from_pretrained(model_id, dtype=dtype)
        processor = AutoProcessor.from_pretrained(model_id)
    if processor.chat_template is None:
        raise ValueError(f"model {model_id!r}: its processor has no chat template; the judge needs one")
    # Decoder-only: pad on the left so the last position of every row is its real last token.
    processor.tokenizer.padding_side = "left"
    return model.to(dev).eval(), processor


def fit_image(image: Image.Image, max_side: int) -> Image.Image:
    """Decode ``image`` to RGB and shrink it (bicubic, aspect kept) so its longer side is at
    most ``max_side`` pixels. Raises whatever PIL raises for a corrupt or truncated image."""
    image = image.convert("RGB")
    scale = max_side / max(image.size)
    if scale < 1:
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(size, Image.Resampling.BICUBIC)
    return image


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

    Raises:
        RuntimeError: CUDA requested but unavailable. ValueError: bad batch_size/threshold/dtype.
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
    ):
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be in [0, 1], got {threshold}")
        devices.require_device(device, "judge local_vlm", "device=cpu on that judge, e.g. judge.judges.1.device=cpu")
        devices.torch_dtype(torch_dtype)
        self.model_id, self.torch_dtype, self.device = model_id, torch_dtype, device
        self.batch_size, self.image_max_side, self.tiny, self.threshold = batch_size, image_max_side, tiny, threshold
        self.name = f"local_vlm:{'tiny-qwen2.5-vl' if tiny else model_id}"
        self.model = self.processor = None
        self.yes_ids: list[int] = []
        self.no_ids: list[int] = []

    def can_answer(self, check: Check) -> bool:
        return True

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
        return p_yes_from_logits(logits, self.yes_ids, self.no_ids).cpu()

    def judge(
        self,
        images: Sequence[Image.Image],
        prompts: Sequence[str],
        checks: Sequence[Sequence[Check]],
    ) -> list[list[Verdict]]:
        """Answer ``checks[i]`` about ``images[i]`` (see ``rewards.judges.base.Judge.judge``).

        An image that cannot be decoded withholds all its checks; a forward pass that fails even
        for one row alone withholds that row's check. The reason names the error; the other
        images are still judged.
        """
        if not len(images) == len(prompts) == len(checks):
            raise ValueError(
                f"{self.name}: got {len(images)} images, {len(prompts)} prompts, {len(checks)} check lists"
            )
        self.load()
        verdicts: list[list[Verdict | None]] = [[None] * len(cs) for cs in checks]
        rows: list[tuple[int, int, Image.Image]] = []  # (image index, check index, fitted image)
        for i, (image, cs) in enumerate(zip(images, checks)):
            try:
                fitted = fit_image(image, self.image_max_side)
            except Exception as e:
                verdicts[i] = [withheld(c, self.name, f"image {i} unreadable: {type(e).__name__}: {e}") for c in cs]
                continue
            rows += [(i, j, fitted) for j in range(len(cs))]

        for start in range(0, len(rows), self.batch_size):
            batch = rows[start : start + self.batch_size]
            for (i, j, _), p in zip(batch, self._p_yes_rows(batch, checks)):
                check = checks[i][j]
                if isinstance(p, Exception):
                    verdicts[i][j] = withheld(check, self.name, f"forward pass failed: {type(p).__name__}: {p}")
                    continue
                answer = "yes" if p >= self.threshold else "no"
                verdicts[i][j] = Verdict(check.id, answer, self.name, f"p_yes={p:.4f}", p_yes=p)
        return verdicts  # type: ignore[return-value]

    def _p_yes_rows(self, batch, checks) -> list[float | Exception]:
        """p_yes per row of ``batch``; if the batched pass fails, each row is retried alone so
        one bad row only withholds itself."""
        questions = [checks[i][j].question for i, j, _ in batch]
        try:
            return self.p_yes([img for _, _, img in batch], questions).tolist()
        except Exception as e:
            if len(batch) == 1:
                return [e]
        out: list[float | Exception] = []
        for row, question in zip(batch, questions):
            try:
                out.append(self.p_yes([row[2]], [question]).item())
            except Exception as e:
                out.append(e)
        return out
