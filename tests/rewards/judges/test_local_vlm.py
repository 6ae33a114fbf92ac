"""The in-process VLM judge and instruction writer, on a tiny random-weight Qwen2.5-VL (CPU)."""

from __future__ import annotations

import io
import math

import pytest
import torch
from PIL import Image, ImageDraw

from refine.interfaces import failures_by_criterion
from refine.writers.local_vlm import LocalVLMInstructionWriter, writer_prompt
from rewards.judges.local_vlm import LocalVLMJudge, p_yes_from_logits
from rewards.rubric import Check, Criterion, Item, Rubric, Verdict

CHECKS = [Check("1", "Is the title red?"), Check("2", "Does the chart have a legend?"), Check("3", "Is there a logo?")]


def _image(width: int, height: int, colour: tuple[int, int, int]) -> Image.Image:
    image = Image.new("RGB", (width, height), "white")
    ImageDraw.Draw(image).rectangle([4, 4, width // 2, height // 2], fill=colour)
    return image


def _corrupt_png() -> Image.Image:
    """A PNG cut in half: ``Image.open`` succeeds lazily, decoding raises OSError."""
    buf = io.BytesIO()
    _image(64, 64, (0, 0, 255)).save(buf, format="PNG")
    return Image.open(io.BytesIO(buf.getvalue()[: len(buf.getvalue()) // 2]))


@pytest.fixture(scope="module")
def judge() -> LocalVLMJudge:
    j = LocalVLMJudge(torch_dtype="float32", device="cpu", batch_size=4, image_max_side=128, tiny=True)
    j.load()
    return j


def test_p_yes_from_logits_hand_computed():
    logits = torch.zeros(2, 5)
    logits[0, 1] = math.log(3.0)  # yes e^ln3 = 3, no e^0 = 1 -> 3/4
    logits[1, 4] = math.log(2.0)  # yes ids {0, 1}: 1 + 1 = 2, no id 4: 2 -> 2/4
    p = p_yes_from_logits(logits, yes_ids=[1, 0], no_ids=[4])
    assert p.dtype == torch.float32
    assert p[0].item() == pytest.approx(4 / 5, abs=1e-6)  # row 0: yes {1: 3, 0: 1} = 4, no {4: 1}
    assert p[1].item() == pytest.approx(0.5, abs=1e-6)
    assert p_yes_from_logits(logits[:1], yes_ids=[1], no_ids=[0]).item() == pytest.approx(3 / 4, abs=1e-6)


def test_p_yes_equals_independent_softmax_of_model_logits(judge):
    image, question = _image(64, 48, (255, 0, 0)), CHECKS[0].question
    [[verdict]] = judge.judge([image], ["a slide"], [[CHECKS[0]]])

    # Run the model ourselves on the same chat prompt and image.
    tokenizer = judge.processor.tokenizer
    content = [{"type": "image"}, {"type": "text", "text": f"{question}\nAnswer Yes or No."}]
    messages = [{"role": "user", "content": content}]
    text = judge.processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    assert text.endswith("assistant\n") and "<|image_pad|>" in text
    inputs = judge.processor(text=[text], images=[image], return_tensors="pt")
    with torch.no_grad():
        logits = judge.model(**inputs).logits[0, -1].double()  # (V,)
    yes_ids, no_ids = set(), set()
    for word, ids in (("Yes", yes_ids), (" Yes", yes_ids), ("No", no_ids), (" No", no_ids)):
        enc = tokenizer(word, add_special_tokens=False)["input_ids"]
        if len(enc) == 1:
            ids.add(enc[0])
    if not yes_ids:  # byte-level tiny tokenizer: "Yes" is Y,e,s -> its first byte stands for it
        yes_ids, no_ids = {tokenizer.convert_tokens_to_ids("Y")}, {tokenizer.convert_tokens_to_ids("N")}
    probs = torch.softmax(logits, dim=0)
    p_yes = probs[list(yes_ids)].sum() / (probs[list(yes_ids)].sum() + probs[list(no_ids)].sum())

    assert verdict.judge == "local_vlm:tiny-qwen2.5-vl" and verdict.check_id == "1"
    assert verdict.p_yes == pytest.approx(p_yes.item(), abs=1e-6)
    assert verdict.answer == ("yes" if p_yes.item() >= 0.5 else "no")
    assert judge.can_answer(Check("9", "anything?"))


def test_deterministic_across_fresh_judges(judge):
    images = [_image(64, 48, (255, 0, 0)), _image(40, 72, (0, 128, 0))]
    other = LocalVLMJudge(torch_dtype="float32", device="cpu", image_max_side=128, tiny=True)
    a = judge.judge(images, ["p", "q"], [CHECKS, CHECKS[:2]])
    b = other.judge(images, ["p", "q"], [CHECKS, CHECKS[:2]])
    assert [[v.p_yes for v in vs] for vs in a] == [[v.p_yes for v in vs] for vs in b]


def test_batched_equals_one_by_one_with_left_padding(judge):
    # Different image sizes give different numbers of image tokens, so rows get padded.
    images = [_image(64, 48, (255, 0, 0)), _image(112, 56, (0, 0, 255)), _image(128, 96, (0, 128, 0))]
    checks = [CHECKS, CHECKS[:2], CHECKS]
    texts = [judge.prompt_text(CHECKS[0].question)] * 2
    padded = judge.processor(text=texts, images=images[:2], padding=True, return_tensors="pt")
    assert padded["image_grid_thw"].prod(-1).tolist() == [16, 32]  # 4 vs 8 image tokens
    assert padded["attention_mask"][:, 0].tolist() == [0, 1]  # left padding on the shorter row
    assert padded["attention_mask"][:, -1].tolist() == [1, 1]

    one = LocalVLMJudge(
        torch_dtype="float32", device="cpu", batch_size=1, image_max_side=128, tiny=True, shared_prefix=False
    )
    one.model, one.processor, one.yes_ids, one.no_ids = judge.model, judge.processor, judge.yes_ids, judge.no_ids
    judge.batch_size = 4
    batched = [[v.p_yes for v in vs] for vs in judge.judge(images, ["p"] * 3, checks)]
    single = [[v.p_yes for v in vs] for vs in one.judge(images, ["p"] * 3, checks)]
    assert [len(vs) for vs in batched] == [3, 2, 3]
    for b_row, s_row in zip(batched, single):
        assert b_row == pytest.approx(s_row, abs=1e-5)


def test_threshold_decides_answer(judge, monkeypatch):
    images = [_image(64, 48, (255, 0, 0)), _image(40, 72, (0, 128, 0))]
    ps = [v.p_yes for vs in judge.judge(images, ["p", "q"], [CHECKS, CHECKS]) for v in vs]
    for threshold, expected in ((0.0, "yes"), (1.0, "no")):
        j = LocalVLMJudge(torch_dtype="float32", device="cpu", image_max_side=128, tiny=True, threshold=threshold)
        j.model, j.processor, j.yes_ids, j.no_ids = judge.model, judge.processor, judge.yes_ids, judge.no_ids
        assert all(v.answer == expected for vs in j.judge(images, ["p", "q"], [CHECKS, CHECKS]) for v in vs)
    assert len(set(ps)) > 1  # the random model still gives distinct p_yes per (image, check)

    # Fixed p_yes per row: at threshold 0.5, 0.5 itself is "yes" (>=) and 0.4999 is "no".
    fixed = dict(zip([c.question for c in CHECKS], [0.9, 0.5, 0.4999]))
    monkeypatch.setattr(judge, "score_questions", lambda prefix, qs: torch.tensor([fixed[q] for q in qs]))
    [verdicts] = judge.judge([images[0]], ["p"], [CHECKS])
    assert [v.answer for v in verdicts] == ["yes", "yes", "no"]
    assert [v.p_yes for v in verdicts] == pytest.approx([0.9, 0.5, 0.4999])


def test_corrupt_image_withholds_only_its_checks(judge):
    good = _image(64, 48, (255, 0, 0))
    result = judge.judge([good, _corrupt_png(), good], ["p"] * 3, [CHECKS[:2], CHECKS, CHECKS[:1]])
    assert [v.answer for v in result[1]] == ["withheld"] * 3
    assert all(v.p_yes is None and "image 1 unreadable" in v.reason for v in result[1])
    assert all(v.answer in ("yes", "no") and v.p_yes is not None for v in result[0] + result[2])
    assert result[2][0].p_yes == pytest.approx(result[0][0].p_yes, abs=1e-6)  # same image, same check


@pytest.mark.parametrize("shared_prefix", [True, False])
def test_forward_failure_on_one_row_withholds_that_row(judge, monkeypatch, shared_prefix):
    method = "score_questions" if shared_prefix else "p_yes"
    real = getattr(judge, method)

    def failing(first, qs):
        if any(q == CHECKS[1].question for q in qs):
            raise RuntimeError("out of memory")
        return real(first, qs)

    monkeypatch.setattr(judge, method, failing)
    monkeypatch.setattr(judge, "shared_prefix", shared_prefix)
    [verdicts] = judge.judge([_image(64, 48, (255, 0, 0))], ["p"], [CHECKS])
    assert [v.answer for v in verdicts][1] == "withheld" and "out of memory" in verdicts[1].reason
    assert verdicts[0].p_yes is not None and verdicts[2].p_yes is not None


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without CUDA")
def test_cuda_requested_without_cuda_is_a_clear_error():
    with pytest.raises(
        RuntimeError, match="judge local_vlm needs a GPU; device=cuda not available; use device=cpu on that judge"
    ):
        LocalVLMJudge(device="cuda")
    with pytest.raises(RuntimeError, match="writer local_vlm needs a GPU; device=cuda:0 not available"):
        LocalVLMInstructionWriter(device="cuda:0")
    with pytest.raises(ValueError, match="torch_dtype='bf16'"):
        LocalVLMJudge(device="cpu", torch_dtype="bf16")


ITEM = Item(
    "slide-7",
    "A slide titled Q3 revenue",
    Rubric((Criterion("title", (CHECKS[0],)), Criterion("chart", (CHECKS[1], CHECKS[2])))),
)
FAILURES = [(c, Verdict(c.id, "no", "test")) for c in (CHECKS[2], CHECKS[0], CHECKS[1])]


def test_writer_prompt_groups_failures_per_criterion():
    groups = failures_by_criterion(ITEM, FAILURES)
    assert [(crit.name, [c.question for c, _ in group]) for crit, group in groups] == [
        ("title", ["Is the title red?"]),
        ("chart", ["Is there a logo?", "Does the chart have a legend?"]),
    ]
    text = writer_prompt(ITEM, FAILURES)
    assert text.endswith(
        "Prompt: A slide titled Q3 revenue\nFailed checks:\n- title: Is the title red?\n"
        "- chart: Is there a logo?\n- chart: Does the chart have a legend?"
    )
    with pytest.raises(ValueError, match="item 'slide-7': failed check '9'"):
        failures_by_criterion(ITEM, [(Check("9", "?"), Verdict("9", "no", "test"))])


@pytest.fixture(scope="module")
def writer() -> LocalVLMInstructionWriter:
    w = LocalVLMInstructionWriter(torch_dtype="float32", device="cpu", max_new_tokens=12, image_max_side=64, tiny=True)
    w.load()
    return w


def test_writer_is_deterministic_string(writer):
    image = _image(64, 48, (255, 0, 0))
    a = writer.write(image, ITEM, FAILURES)
    fresh = LocalVLMInstructionWriter(
        torch_dtype="float32", device="cpu", max_new_tokens=12, image_max_side=64, tiny=True
    )
    b = fresh.write(image, ITEM, FAILURES)
    assert isinstance(a, str) and a and a == b
    assert writer.write(image, ITEM, []) == ""
    assert writer.name == "local_vlm:tiny-qwen2.5-vl"


def test_writer_falls_back_to_template_on_empty_generation(writer, monkeypatch):
    eos = writer.processor.tokenizer.convert_tokens_to_ids("<|im_end|>")

    def only_eos(input_ids, **kw):  # the model "answers" with a special token only
        return torch.cat([input_ids, torch.full((1, 1), eos)], dim=1)

    monkeypatch.setattr(writer.model, "generate", only_eos)
    out = writer.write(_image(64, 48, (255, 0, 0)), ITEM, FAILURES)
    assert out == "Fix: Is there a logo?\nFix: Is the title red?\nFix: Does the chart have a legend?"


QUESTIONS = [
    "Is the title red?",
    "Does the chart have a legend with three entries?",
    "Logo?",
    "Is there a blue bar on the left side of the chart, next to the axis?",
    "x",
    "Is the background white?",
]


@pytest.fixture(scope="module")
def sharp_judge() -> LocalVLMJudge:
    """The tiny Qwen2.5-VL with every weight matrix redrawn at std 0.7: the stock init gives
    p_yes ~0.49 for everything, where a wrong position or a leaked pad would not show."""
    j = LocalVLMJudge(torch_dtype="float32", device="cpu", batch_size=4, image_max_side=128, tiny=True)
    j.load()
    g = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for p in j.model.parameters():
            if p.ndim >= 2:
                p.copy_(torch.randn(p.shape, generator=g) * 0.7)
    return j


def test_shared_prefix_p_yes_equals_one_check_at_a_time(sharp_judge, monkeypatch):
    j = sharp_judge
    images = [_image(112, 56, (255, 0, 0)), _image(64, 96, (0, 0, 255))]
    encodes = []
    handle = j.model.model.visual.register_forward_hook(lambda *a: encodes.append(1))
    try:
        shared = [j.p_yes_shared(image, QUESTIONS) for image in images]  # packed passes of 4 and 2 questions
    finally:
        handle.remove()
    assert len(encodes) == 2  # the vision tower ran once per image, not once per question
    one_by_one = [torch.cat([j.p_yes([image], [q]) for q in QUESTIONS]) for image in images]
    for s, o in zip(shared, one_by_one):
        assert s.dtype == torch.float32 and s.shape == (len(QUESTIONS),)
        assert torch.allclose(s, o, atol=1e-4, rtol=0)
    # The check can fail: the values spread, depend on the image, and shift with the position.
    assert (one_by_one[0].max() - one_by_one[0].min()) > 0.3
    assert (one_by_one[0] - one_by_one[1]).abs().max() > 0.01
    prefix = j.prefill(images[0])
    shifted = j._score_suffixes(
        [j.processor.tokenizer(QUESTIONS[0] + j.prompt_parts()[1])["input_ids"]], prefix[0], prefix[1], prefix[2] + 1
    )
    assert abs(shifted.item() - one_by_one[0][0].item()) > 1e-3


def test_shared_prefix_judge_matches_the_row_path_and_counts_passes(sharp_judge):
    j = sharp_judge
    images = [_image(112, 56, (255, 0, 0)), _image(64, 96, (0, 0, 255))]
    checks = [[Check(str(k), q) for k, q in enumerate(QUESTIONS)], [Check("a", QUESTIONS[2])]]
    j.calls = j.tokens = 0
    shared = j.judge(images, ["p", "q"], checks)
    shared_calls, shared_tokens = j.calls, j.tokens
    j.shared_prefix, j.calls, j.tokens = False, 0, 0
    try:
        rows = j.judge(images, ["p", "q"], checks)
    finally:
        j.shared_prefix = True
    for a, b in zip(shared, rows):
        assert [v.p_yes for v in a] == pytest.approx([v.p_yes for v in b], abs=1e-4)
        assert [v.answer for v in a] == [v.answer for v in b]
    assert shared_calls == 2 + 2 + 1  # per image one prefill; image 0: batches of 4 + 2, image 1: 1
    assert j.calls == 2  # 7 rows in batches of 4
    assert shared_tokens < j.tokens  # the image tokens are processed once per image, not per check


def test_paraphrase_votes_share_one_image_encoding(sharp_judge, monkeypatch):
    from rewards.judges.vlm import PARAPHRASES

    j = sharp_judge
    image = _image(112, 56, (255, 0, 0))
    monkeypatch.setattr(j, "votes", 3)
    j.calls = 0
    [[verdict]] = j.judge([image], ["p"], [[Check("1", QUESTIONS[1])]])
    assert j.calls == 2  # one prefill, one pass with the 3 phrasings packed (batch_size 4)
    ps = j.p_yes_shared(image, [PARAPHRASES[v].format(question=QUESTIONS[1]) for v in range(3)]).tolist()
    assert verdict.p_yes == pytest.approx(sum(ps) / 3, abs=1e-5)
    n_yes = sum(p >= 0.5 for p in ps)
    assert verdict.evidence["votes"] == ["yes" if p >= 0.5 else "no" for p in ps]
    assert verdict.answer == ("yes" if n_yes >= 2 else "no")
    assert verdict.evidence["agreement"] == pytest.approx(max(n_yes, 3 - n_yes) / 3)
    with pytest.raises(ValueError, match="votes"):
        LocalVLMJudge(device="cpu", tiny=True, votes=0)


def test_answer_mass_from_logits_hand_computed():
    from rewards.judges.local_vlm import answer_mass_from_logits

    logits = torch.zeros(1, 5)
    logits[0, 2] = math.log(6.0)  # vocabulary mass: 1 + 1 + 6 + 1 + 1 = 10; answers {0, 1} + {4}: 3
    assert answer_mass_from_logits(logits, yes_ids=[0, 1], no_ids=[4]).item() == pytest.approx(0.3, abs=1e-6)


@pytest.mark.parametrize("shared_prefix", [True, False])
def test_little_mass_on_yes_no_is_withheld(judge, monkeypatch, shared_prefix):
    # the tiny random model spreads its mass over the whole vocabulary: Yes/No hold next to none
    monkeypatch.setattr(judge, "shared_prefix", shared_prefix)
    image = _image(64, 48, (255, 0, 0))
    monkeypatch.setattr(judge, "min_answer_mass", 0.5)
    [withheld_] = judge.judge([image], ["p"], [CHECKS[:2]])
    assert [v.answer for v in withheld_] == ["withheld", "withheld"] and all(v.p_yes is None for v in withheld_)
    assert all("of the next-token distribution is below min_answer_mass=0.5: no answer" in v.reason for v in withheld_)
    monkeypatch.setattr(judge, "min_answer_mass", 0.0)
    [answered] = judge.judge([image], ["p"], [CHECKS[:2]])
    assert all(v.answer in ("yes", "no") and v.p_yes is not None and "Yes/No mass" in v.reason for v in answered)
    mass = float(answered[0].reason.split("Yes/No mass ")[1].rstrip(")"))
    assert 0 < mass < 0.5


def test_min_answer_mass_defaults_and_bounds():
    assert LocalVLMJudge(device="cpu", tiny=True).min_answer_mass == 0.0  # random weights: off
    with pytest.raises(ValueError, match=r"min_answer_mass must be in \[0, 1\], got -0.1"):
        LocalVLMJudge(device="cpu", tiny=True, min_answer_mass=-0.1)
