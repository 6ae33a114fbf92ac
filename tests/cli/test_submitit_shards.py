"""Many machines through hydra-submitit-launcher: the shipped SLURM example launcher
(``conf/hydra/launcher/slurm_example.yaml``) with its engine swapped for ``submitit_local``, so each
shard of ``-m 'shard=0/2,1/2'`` runs as a submitit job on this machine, for rubricloop-eval (then
``rubricloop-eval merge``) and rubricloop-refine; both equal the unsharded run.

Fast components (a pixel judge, a one-pixel editor) keep the jobs short: what is tested is the
launcher path, the shard folders and the merge, not the OCR.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("hydra_plugins.hydra_submitit_launcher", reason='needs pip install -e ".[cluster]"')

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "refine" / "example" / "bizgeneval_text.jsonl"
SWAP = ("hydra/launcher=slurm_example", "hydra/launcher/engine=submitit_local")
"""The SLURM example as a cluster user runs it, but for its engine: local submitit jobs."""
REFINE_PARTS = (
    "judge.judges=[{_target_: worker_components.MarkJudge}]",
    "~editor",
    "+editor={_target_: worker_components.MarkEditor}",
)
EVAL_PARTS = ("~judge", "+judge={_target_: eval_helpers.PixelJudge}")


def sweep(script: str, *overrides: str) -> None:
    """``<script> -m <overrides>`` in a subprocess that finds the test components."""
    env = {
        **os.environ,
        "WANDB_MODE": "disabled",
        "PYTHONPATH": os.pathsep.join(str(p) for p in (ROOT, ROOT / "tests", ROOT / "tests" / "refine")),
    }
    proc = subprocess.run(
        [str(Path(sys.executable).with_name(script)), "-m", *SWAP, *overrides, "shard=0/2,1/2"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]


def compose_run(module, config_name: str, *overrides: str) -> int:
    """``<module>.run`` on the composed config, in this process."""
    from hydra import compose, initialize_config_module

    with initialize_config_module(config_module="conf", version_base="1.3"):
        return module.run(compose(config_name=config_name, overrides=list(overrides)))


def test_the_slurm_example_as_the_tests_swap_it_is_the_slurm_example_but_for_its_engine():
    from hydra import compose, initialize_config_module

    with initialize_config_module(config_module="conf", version_base="1.3"):
        slurm = compose(config_name="eval", overrides=["hydra/launcher=slurm_example"], return_hydra_config=True)
        local = compose(config_name="eval", overrides=list(SWAP), return_hydra_config=True)
    slurm, local = slurm.hydra.launcher, local.hydra.launcher
    assert slurm._target_.endswith("submitit_launcher.SlurmLauncher")
    assert local._target_.endswith("submitit_launcher.LocalLauncher")
    assert {k: v for k, v in slurm.items() if k in local and k != "_target_"} == {
        k: v for k, v in local.items() if k != "_target_"
    }
    assert (local.timeout_min, local.cpus_per_task, local.gpus_per_node, local.mem_gb) == (240, 8, 1, 64)


@pytest.mark.slow
def test_eval_shards_as_submitit_jobs_merge_to_the_unsharded_run(tmp_path, monkeypatch):
    from evaluation import cli
    from evaluation.merge import merge

    monkeypatch.syspath_prepend(str(ROOT / "tests"))
    monkeypatch.setenv("WANDB_MODE", "disabled")
    single, sharded = tmp_path / "single", tmp_path / "sharded"
    common = (f"data={DATA}", f"images={DATA.parent / 'images'}", "limit=4", "report=false", *EVAL_PARTS)
    assert compose_run(cli, "eval", *common, f"out={single}") == 0
    sweep("rubricloop-eval", *common, f"out={sharded}")
    assert sorted(p.name for p in sharded.glob("shard_*")) == ["shard_0-of-2", "shard_1-of-2"]
    assert sorted(p.name for p in (sharded / ".submitit").glob("*/*_result.pkl"))  # they ran as submitit jobs
    assert merge(sharded, report=False) == 0
    a, b = (json.loads((p / "scores.json").read_text()) for p in (single, sharded))
    assert sorted(a["per_item"], key=lambda r: r["id"]) == sorted(b["per_item"], key=lambda r: r["id"])
    assert b["shards"] == {"n": 2, "items_per_shard": {"0": 2, "1": 2}}
    files = {p: sorted(f.relative_to(p / "results") for f in (p / "results").rglob("*")) for p in (single, sharded)}
    assert files[single] == files[sharded] and files[single]
    for f in files[single]:  # the verdicts, as the official result files hold them
        assert (single / "results" / f).read_bytes() == (sharded / "results" / f).read_bytes()


@pytest.mark.slow
def test_refine_shards_as_submitit_jobs_equal_the_unsharded_run(tmp_path, monkeypatch):
    from refine import cli

    monkeypatch.syspath_prepend(str(ROOT / "tests" / "refine"))
    single, sharded = tmp_path / "single", tmp_path / "sharded"
    common = ("limit=4", "iterations=1", "workers=1", "wandb.mode=disabled", *REFINE_PARTS)
    assert compose_run(cli, "refine", *common, f"out={single}") == 0
    sweep("rubricloop-refine", *common, f"out={sharded}")
    ids = [str(json.loads(line)["id"]) for line in DATA.read_text().splitlines()[:4]]
    shards = {i: json.loads((sharded / f"shard_{i}-of-2" / "summary.json").read_text()) for i in (0, 1)}
    assert [it["id"] for it in shards[0]["items"]] == ids[0::2] and [it["id"] for it in shards[1]["items"]] == ids[1::2]
    whole = json.loads((single / "summary.json").read_text())
    by_id = {it["id"]: it for s in shards.values() for it in s["items"]}
    assert [by_id[i] for i in ids] == whole["items"] and all(it["error"] is None for it in whole["items"])
    for i, item in enumerate(ids):  # the verdicts and images of every iteration
        shard_dir = sharded / f"shard_{i % 2}-of-2" / item
        for name in ("verdicts.jsonl", "instructions.jsonl", "result.json", "iter_0.png", "iter_1.png", "best.png"):
            assert (shard_dir / name).read_bytes() == (single / item / name).read_bytes(), (item, name)
