"""Each debug preset belongs to its app: another app's preset is one line naming it and its app, exit 2.

Before, ``rubricloop-refine debug=smoke`` (the trainer's preset) ended in a traceback and
``rubricloop-eval debug=smoke`` ran with the trainer's keys merged in.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hydra import compose, initialize_config_module

import conf
from rewards.common.debug_preset import foreign_preset, preset_app, presets_of

ROOT = Path(__file__).resolve().parents[2]
DEBUG = Path(conf.__file__).parent / "debug"
OWNERS = {
    "smoke": "rubricloop-train",
    "refine_smoke": "rubricloop-refine",
    "eval_smoke": "rubricloop-eval",
    "judge_smoke": "rubricloop-judge",
}
"""preset -> the app it belongs to."""

CONFIGS = {
    "rubricloop-train": "train",
    "rubricloop-refine": "refine",
    "rubricloop-eval": "eval",
    "rubricloop-judge": "judge_run",
}
"""app -> its primary config in conf/."""

REQUIRED = {"eval": ("out=x",), "judge_run": ("data=a", "out=b")}

ENTRY = {
    "rubricloop-refine": "refine.cli",
    "rubricloop-eval": "evaluation.cli",
    "rubricloop-judge": "evaluation.judge_cli",
    "rubricloop-train": "training.cli",
}
"""app -> the module whose ``main`` is its console script."""


def test_every_preset_declares_its_app():
    files = sorted(p.stem for p in DEBUG.glob("*.yaml"))
    assert files == sorted(OWNERS)
    for name, app in OWNERS.items():
        assert yaml.safe_load((DEBUG / f"{name}.yaml").read_text())["debug_app"] == app
        assert preset_app(name) == app
    assert presets_of("rubricloop-refine") == ["refine_smoke"]
    assert presets_of("rubricloop-train") == ["smoke"]
    assert presets_of("nobody") == []
    assert preset_app("no_such_preset") is None and preset_app("../refine") is None


@pytest.mark.parametrize("name,app", sorted(OWNERS.items()))
def test_a_preset_composes_in_its_own_app_and_passes(name, app):
    config = CONFIGS[app]
    assert foreign_preset([f"debug={name}"], app) is None
    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose(config_name=config, overrides=[f"debug={name}", *REQUIRED.get(config, ())])
    assert cfg.debug_app == app
    if app != "rubricloop-train":  # only the trainer's preset has trainer keys
        assert "trainer" not in cfg


@pytest.mark.parametrize("name,owner", sorted(OWNERS.items()))
@pytest.mark.parametrize("app", sorted(CONFIGS))
def test_another_apps_preset_is_one_line_naming_it_and_its_app(name, owner, app):
    problem = foreign_preset(["out=x", f"debug={name}"], app)
    if owner == app:
        assert problem is None
        return
    own = ", ".join(f"debug={n}" for n, a in sorted(OWNERS.items()) if a == app)
    assert problem == f"debug={name} is {owner}'s preset, not {app}'s; {app}'s: {own}"


def test_plus_forms_sweeps_and_unknown_presets():
    app = "rubricloop-refine"
    assert foreign_preset(["+debug=smoke"], app).startswith("debug=smoke is rubricloop-train's preset")
    assert foreign_preset(["++debug=smoke"], app).startswith("debug=smoke is rubricloop-train's preset")
    assert foreign_preset(["debug=refine_smoke,eval_smoke"], app).startswith("debug=eval_smoke is rubricloop-eval's")
    assert foreign_preset(["debug=refine_smoke"], app) is None
    assert foreign_preset(["debug=no_such_preset", "debug_x=smoke", "data=smoke"], app) is None  # Hydra names it
    assert foreign_preset(["debug=null"], app) is None


@pytest.mark.parametrize(
    "app,args,owner",
    [
        ("rubricloop-refine", ["debug=smoke"], "rubricloop-train"),
        ("rubricloop-eval", ["debug=smoke", "out=OUT"], "rubricloop-train"),
        ("rubricloop-eval", ["debug=refine_smoke", "out=OUT"], "rubricloop-refine"),
        ("rubricloop-judge", ["debug=eval_smoke", "data=a", "out=OUT"], "rubricloop-eval"),
        ("rubricloop-train", ["debug=refine_smoke", "trainer.output_dir=OUT"], "rubricloop-refine"),
    ],
)
def test_console_script_exits_2_in_one_line_before_anything(app, args, owner, tmp_path, monkeypatch, capsys):
    import importlib

    out = tmp_path / "out"
    monkeypatch.setattr(sys, "argv", [app, *(a.replace("OUT", str(out)) for a in args)])
    with pytest.raises(SystemExit) as exit_:
        importlib.import_module(ENTRY[app]).main()
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    name = args[0].split("=")[1]
    assert f"debug={name} is {owner}'s preset, not {app}'s" in err[0]
    assert not out.exists()


def test_train_text_tasks_have_no_preset(monkeypatch, capsys):
    from training import cli

    monkeypatch.setattr(sys, "argv", ["rubricloop-train", "task=prompt_rewriter", "debug=smoke"])
    with pytest.raises(SystemExit) as exit_:
        cli.main()
    assert exit_.value.code == 2
    assert capsys.readouterr().err.strip() == (
        "rubricloop-train: debug=smoke is rubricloop-train's preset, not rubricloop-train task=prompt_rewriter's; "
        "rubricloop-train task=prompt_rewriter has none"
    )


@pytest.mark.slow
def test_refine_with_the_trainers_preset_is_one_line_not_a_traceback(tmp_path):
    """The command of the issue, as a user runs it: before, a TypeError traceback (exit 1)."""
    out = tmp_path / "r"
    proc = subprocess.run(
        [sys.executable, "-m", "refine.cli", "debug=smoke", f"out={out}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "WANDB_MODE": "disabled"},
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == (
        "error: debug=smoke is rubricloop-train's preset, not rubricloop-refine's; "
        "rubricloop-refine's: debug=refine_smoke"
    )
    assert "Traceback" not in proc.stderr and not out.exists()
