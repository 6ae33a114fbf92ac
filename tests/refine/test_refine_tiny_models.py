"""generator -> judge -> writer -> editor, end to end, with the random-weight `tiny` config choices.

The same Hydra configs a GPU user selects (generator=sd3, judge=ocr_local_vlm, editor=flux_kontext...)
run here with tiny models built in code. The tiny VLM judge's threshold is set to 1.0 so every
check it answers is "no" and the editor runs on every iteration.
"""

import json

import pytest
from hydra import compose, initialize_config_module
from PIL import Image

from refine.cli import run

ROW = {
    "id": "deck/1",
    "prompt": 'A slide titled "Q3 Revenue" with a blue bar chart',
    "criteria": [
        {
            "name": "title",
            "checks": [
                {
                    "id": "title",
                    "question": "Does the title read exactly 'Q3 Revenue'?",
                    "expects": [{"text": "Q3 Revenue", "region": "top"}],
                }
            ],
        },
        {
            "name": "chart",
            "checks": [
                {"id": "bars", "question": "Is there a bar chart?"},
                {"id": "blue", "question": "Are the bars blue?"},
            ],
        },
    ],
}


@pytest.mark.parametrize("editor", ["tiny", "tiny_qwen_image_edit", "tiny_instruct_pix2pix"])
def test_tiny_loop(tmp_path, monkeypatch, editor):
    monkeypatch.setenv("WANDB_MODE", "disabled")
    data = tmp_path / "rubrics.jsonl"
    data.write_text(json.dumps(ROW) + "\n")
    out = tmp_path / "out"
    with initialize_config_module("conf", version_base="1.3"):
        cfg = compose(
            "refine",
            overrides=[
                f"data={data}",
                f"out={out}",
                "iterations=2",
                "judge=tiny",
                "judge.judges.1.threshold=1.0",
                "writer=template",
                f"editor={editor}",
                "generator=tiny",
                "generator.height=32",
                "generator.width=32",
                "generator.num_inference_steps=2",
                "editor.num_inference_steps=2",
            ],
        )
    assert run(cfg) == 0

    summary = json.loads((out / "summary.json").read_text())
    [item] = summary["items"]
    assert item["error"] is None and item["stop_reason"] == "iterations"
    assert len(item["scores"]) == 3
    item_dir = out / "deck_1"
    images = [Image.open(item_dir / f"iter_{k}.png") for k in range(3)]
    assert all(im.size == (32, 32) for im in images)
    assert images[0].tobytes() != images[1].tobytes()  # the editor changed the image
    verdicts = [json.loads(line) for line in (item_dir / "verdicts.jsonl").read_text().splitlines()]
    vlm = [v for v in verdicts if v["check"] in ("bars", "blue")]
    assert len(vlm) == 6 and all(
        v["judge"].startswith("local_vlm") and 0 <= v["p_yes"] < 1 and v["answer"] == "no" for v in vlm
    )
    title = [v for v in verdicts if v["check"] == "title"]
    assert all(v["judge"] == "ocr" and v["answer"] == "no" for v in title)  # noise images carry no title
    instructions = [json.loads(line) for line in (item_dir / "instructions.jsonl").read_text().splitlines()]
    assert (
        len(instructions) == 2 and 'Render the text "Q3 Revenue" exactly at the top' in instructions[0]["instruction"]
    )
