"""The CLIP preference reward (PickScore's formula) with a tiny random-weight CLIP built in code:
equal to the model's own ``logits_per_image`` diagonal / 26, the same from a saved folder through
``from_pretrained`` (the path the real model ids take), batch-size independent, and in the reward
contract (``combine_rewards``)."""

from __future__ import annotations

import pytest
import torch
from PIL import Image, ImageDraw

from rewards.models.tiny_clip import tiny_clip_scorer
from rewards.preference import CLIPPreferenceReward
from rewards.reward_fns import combine_rewards

PROMPTS = ["a red poster", "a dark title band over a light page", "a bar chart with rising bars", "a blue square"]


def images() -> list[Image.Image]:
    red = Image.new("RGB", (48, 40), (210, 30, 30))
    slide = Image.new("RGB", (64, 64), (235, 235, 235))
    ImageDraw.Draw(slide).rectangle([0, 0, 63, 12], fill=(20, 20, 50))
    bars = Image.new("RGB", (64, 48), "white")
    for i, h in enumerate((10, 20, 30, 40)):
        ImageDraw.Draw(bars).rectangle([4 + 15 * i, 47 - h, 13 + 15 * i, 47], fill="black")
    return [red, slide, bars, Image.new("RGB", (20, 20), (20, 40, 220))]


@pytest.fixture(scope="module")
def reward() -> CLIPPreferenceReward:
    torch.set_num_threads(1)
    return CLIPPreferenceReward(tiny="tiny_clip_scorer", device="cpu", batch_size=3)


def test_the_reward_is_the_clip_logit_of_each_image_and_its_prompt_over_26(reward):
    model, processor = tiny_clip_scorer()
    inputs = processor(text=PROMPTS, images=images(), return_tensors="pt", padding=True)
    with torch.no_grad():
        logits = model(**inputs).logits_per_image  # (N images, N prompts): exp(logit_scale) * cos
    got = torch.tensor(reward(PROMPTS, images()))
    torch.testing.assert_close(got, logits.diagonal() / 26.0, rtol=1e-5, atol=1e-6)
    assert len(set(got.tolist())) == len(PROMPTS)  # a score per pair, not a constant
    assert got.abs().max() <= model.logit_scale.exp().item() / 26.0  # |cos| <= 1
    swapped = torch.tensor(reward(PROMPTS[::-1], images()))
    torch.testing.assert_close(swapped, logits.flip(1).diagonal() / 26.0, rtol=1e-5, atol=1e-6)


def test_from_pretrained_folders_give_the_same_scores(tmp_path, reward):
    """The real-model path (``model=`` and ``processor=`` ids) on a saved copy of the tiny scorer."""
    model, processor = tiny_clip_scorer()
    model.save_pretrained(tmp_path / "model")
    processor.save_pretrained(tmp_path / "processor")
    loaded = CLIPPreferenceReward(
        model=str(tmp_path / "model"), processor=str(tmp_path / "processor"), device="cpu", divide_by=1.0
    )
    torch.testing.assert_close(
        torch.tensor(loaded(PROMPTS, images())), torch.tensor(reward(PROMPTS, images())) * 26.0, rtol=1e-5, atol=1e-5
    )


def test_batches_and_the_reward_contract(reward):
    one_by_one = CLIPPreferenceReward(tiny="tiny_clip_scorer", device="cpu", batch_size=1)
    torch.testing.assert_close(torch.tensor(one_by_one(PROMPTS, images())), torch.tensor(reward(PROMPTS, images())))
    total, per_fn = combine_rewards([reward], [0.5], PROMPTS, images())
    assert list(per_fn) == ["pickscore"]
    torch.testing.assert_close(total, 0.5 * torch.tensor(reward(PROMPTS, images()), dtype=torch.float32))
    with pytest.raises(ValueError, match="got 2 prompts but 4 images"):
        reward(PROMPTS[:2], images())


def test_bad_settings_fail_in_one_line():
    with pytest.raises(ValueError, match="tiny='nope' is no builder in rewards.models.tiny_clip"):
        CLIPPreferenceReward(tiny="nope", device="cpu")
    with pytest.raises(ValueError, match="divide_by > 0"):
        CLIPPreferenceReward(tiny="tiny_clip_scorer", device="cpu", divide_by=0)
    if not torch.cuda.is_available():
        with pytest.raises(RuntimeError, match="rewards pickscore needs a GPU; device=cuda not available"):
            CLIPPreferenceReward(tiny="tiny_clip_scorer")


def test_a_missing_model_folder_is_one_line_before_any_download():
    with pytest.raises(ValueError, match=r"pickscore: model='/nonexistent/model': no such folder"):
        CLIPPreferenceReward(model="/nonexistent/model", device="cpu")
    with pytest.raises(ValueError, match=r"processor='\./no/such/processor': no such folder"):
        CLIPPreferenceReward(processor="./no/such/processor", device="cpu")
