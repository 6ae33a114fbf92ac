"""The loop with judge=ocr_vlm and writer=llm against an OpenAI-compatible server on 127.0.0.1.

OCR decides the text checks, the VLM judge (one request per image, BizGenEval protocol) the
rest, the LLM writer turns failures into instructions, and the text editor applies them. The
server answers every VLM statement "true" and writes one instruction per failed criterion.
"""

import json
import re
import shutil
from pathlib import Path

from chat_server import ChatServer, ok
from hydra import compose, initialize_config_module

from refine.cli import run

EXAMPLE = Path(__file__).resolve().parents[2] / "refine" / "example"


def respond(seen, n):
    if seen.body["messages"][0]["content"].startswith("You write editing instructions"):
        criteria = re.findall(r"^Criterion \d+:", seen.text, flags=re.M)
        return ok(json.dumps({"instructions": [f"fix criterion {k + 1}" for k in range(len(criteria))]}))
    numbers = re.findall(r"^(\d+)\. ", seen.text, flags=re.M)
    return ok(json.dumps({k: {"result": True, "reason": "visible"} for k in numbers}))


def test_ocr_plus_vlm_judge_and_llm_writer(tmp_path, monkeypatch):
    monkeypatch.setenv("WANDB_MODE", "disabled")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-logged")
    row = json.loads((EXAMPLE / "bizgeneval_text.jsonl").read_text().splitlines()[0])
    (tmp_path / "images").mkdir()
    shutil.copy(EXAMPLE / row["image"], tmp_path / row["image"])
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps(row) + "\n")
    out = tmp_path / "out"
    with ChatServer(respond) as server:
        with initialize_config_module("conf", version_base="1.3"):
            cfg = compose(
                "refine",
                overrides=[
                    f"data={data}",
                    f"out={out}",
                    "iterations=1",
                    "judge=ocr_vlm",
                    "writer=llm",
                    f"judge.judges.1.base_url={server.base_url}",
                    f"writer.base_url={server.base_url}",
                    "judge.judges.1.max_retries=0",
                ],
            )
        code = run(cfg)
    assert code == 0
    [item] = json.loads((out / "summary.json").read_text())["items"]
    assert [s["coverage"] for s in item["scores"]] == [1.0, 1.0]
    assert item["scores"][1]["pass_rate"] > item["scores"][0]["pass_rate"]
    item_dir = out / str(row["id"])
    verdicts = [json.loads(line) for line in (item_dir / "verdicts.jsonl").read_text().splitlines()]
    judges = {v["judge"] for v in verdicts}
    assert judges == {"ocr", "vlm:Qwen/Qwen2.5-VL-7B-Instruct"}
    assert all(v["answer"] == "yes" for v in verdicts if v["judge"].startswith("vlm"))
    [instruction] = [json.loads(line) for line in (item_dir / "instructions.jsonl").read_text().splitlines()]
    assert instruction["writer"] == "llm:Qwen/Qwen2.5-VL-7B-Instruct" and instruction["instruction"].startswith(
        "fix criterion 1"
    )
    # the API key reached the server but none of the outputs
    assert all(s.headers.get("Authorization") == "Bearer sk-test-not-logged" for s in server.seen)
    assert not any("sk-test-not-logged" in p.read_text(errors="ignore") for p in out.rglob("*") if p.is_file())
