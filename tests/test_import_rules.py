"""The house rules of the package layout, read off the code with ``ast`` (no module is imported).

Each room imports only rooms below it (the order is written in ``rewards/__init__.py``,
``rewards/text/__init__.py``, ``documents/__init__.py``, ``refine/__init__.py``,
``training/__init__.py`` and ``evaluation/__init__.py``), and no module imports itself back through
others, counting imports inside function bodies too; no module of ``rewards/text`` is over
``MAX_LINES`` lines.

The configs obey the same rules: a ``_target_`` that an app's config composes
(``conf/<app>.yaml``, the choices of its groups, its debug presets, and for rubricloop-train the
experiments) is an import of that app's room, so ``conf/eval.yaml`` choosing ``generator=``
makes ``evaluation`` build ``refine.generators.DiffusersGenerator`` (allowed: the application
sits above refine). An arrow conf/ would draw against the rules must be listed in
``KNOWN_CONFIG_ARROWS`` with its reason (none is, today), and a listed one must still occur.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rewards", "documents", "refine", "training", "evaluation", "conf")

# room -> rank; a module may import its own room or a room of lower rank.
RANKS = {
    "rewards.common": 0,
    "rewards.models": 1,
    "rewards.text.ocr": 2,  # the three text rooms: OCR reading, the question compiler, the page structure
    "rewards.text.questions": 2.3,
    "rewards.text.page": 2.6,
    "rewards.text": 2.6,  # the package's __init__ (a docstring)
    "rewards.core": 3,  # rubric, importers, image_stats, leakage, toy_rewards (top of rewards/)
    "documents": 3.5,  # synthetic documents and their truth: above the rubric, below every judge
    "rewards.judges": 4,
    "rewards.scorers": 4,
    "rewards.reward_fns": 5,
    "refine": 7,
    "training": 8,  # the instruction writer is trained on refine's writer prompt and editors (training.text)
    "evaluation": 9,  # the application: rubricloop-eval, -judge, -report, -judge-bench
}
TRAINING_FROM_REFINE = {
    "refine.interfaces",
    "refine.writers.local_vlm",
    "refine.generators",
    "refine.editors.diffusers",
    "refine.editors.text",
}
"""All of refine that training may import: the writer's request (the instruction writer is trained
on exactly the prompt refine's trained writer sends), the editor protocol, and the components the
text tasks' configs build (conf/train_text.yaml: the prompt rewriter's images come from refine's
generators, the instruction writer's edits from refine's editors); never the loop."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room(module: str) -> str:
    """The room of a dotted module name (``rewards.text.page.grounding`` -> ``rewards.text.page``)."""
    parts = module.split(".")
    if parts[0] != "rewards":
        return parts[0]
    if len(parts) == 1:
        return "rewards.core"
    if len(parts) > 2 and ".".join(parts[:3]) in RANKS:
        return ".".join(parts[:3])
    if f"rewards.{parts[1]}" in RANKS:
        return f"rewards.{parts[1]}"
    return "rewards.core"


def project_modules() -> dict[str, Path]:
    return {
        module_name(p): p
        for pkg in PACKAGES
        for p in sorted((ROOT / pkg).rglob("*.py"))
        if "__pycache__" not in p.parts
    }


def imports_of(path: Path, module: str, known: set[str]) -> set[str]:
    """The project modules ``path`` imports, anywhere in the file (function bodies included).
    ``from pkg import name`` counts as importing ``pkg.name`` when that is a module, else ``pkg``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name.split(".")[0] in PACKAGES and name != module:
                found.add(name)
    return found


MODULES = project_modules()
GRAPH = {m: imports_of(p, m, set(MODULES)) for m, p in MODULES.items()}


def test_the_walk_sees_the_packages():
    assert {"rewards.rubric", "rewards.common.images", "refine.loop", "training.recipes.grpo"} <= set(MODULES)
    assert "rewards.rubric" in GRAPH["rewards.importers"]
    assert room("rewards.text.page.grounding") == "rewards.text.page" and room("rewards.rubric") == "rewards.core"
    assert room("rewards.text.ocr.ocr_read") == "rewards.text.ocr" and room("rewards.text") == "rewards.text"
    assert room("rewards") == "rewards.core" and room("refine.editors.diffusers") == "refine"
    assert room("documents.adversarial.kinds") == "documents" and "documents.fonts" in GRAPH["documents.layout"]


def test_every_room_is_ranked():
    rooms = {room(m) for m in MODULES if not m.startswith("conf")}
    assert rooms <= set(RANKS), rooms - set(RANKS)


def arrows_up(module: str, deps: set[str]) -> list[str]:
    """The imports of ``module`` that go to its own room's level or above, or to a room it may never import."""
    src = room(module)
    return sorted(
        d
        for d in deps
        if room(d) != src
        and (
            RANKS[room(d)] >= RANKS[src]
            or (src == "training" and room(d) == "refine" and d not in TRAINING_FROM_REFINE)
        )
    )


def test_the_rule_catches_an_arrow_up(tmp_path):
    path = tmp_path / "x.py"
    path.write_text("def f():\n    from refine.loop import RefineLoop\n    from rewards.common import images\n")
    deps = imports_of(path, "rewards.common.x", set(MODULES))
    assert deps == {"refine.loop", "rewards.common.images"}
    assert arrows_up("rewards.common.x", deps) == ["refine.loop"]
    assert arrows_up("training.x", {"evaluation.cli", "rewards.rubric", "refine.loop", "refine.interfaces"}) == [
        "evaluation.cli",
        "refine.loop",
    ]
    assert arrows_up("rewards.judges.x", {"rewards.scorers.coverage", "rewards.text.ocr.text_match"}) == [
        "rewards.scorers.coverage"
    ]
    text_rooms = {
        "rewards.text.ocr.text_match",
        "rewards.text.questions.question_compiler",
        "rewards.text.page.elements",
    }
    assert arrows_up("rewards.text.ocr.x", text_rooms) == [
        "rewards.text.page.elements",
        "rewards.text.questions.question_compiler",
    ]
    assert arrows_up("rewards.text.questions.x", text_rooms) == ["rewards.text.page.elements"]
    assert arrows_up("rewards.text.page.x", text_rooms) == []
    deps = {
        "rewards.judges.ocr",
        "evaluation.judge_bench",
        "refine.loop",
        "rewards.rubric",
        "rewards.text.page.grounding",
    }
    assert arrows_up("documents.x", deps) == ["evaluation.judge_bench", "refine.loop", "rewards.judges.ocr"]
    assert arrows_up("evaluation.x", {"documents.fidelity"}) == arrows_up("refine.x", {"documents.fonts"}) == []


@pytest.mark.parametrize("module", sorted(m for m in MODULES if not m.startswith("conf")))
def test_no_arrow_up(module):
    bad = arrows_up(module, GRAPH[module])
    assert not bad, f"{module} ({room(module)}) imports {bad}: a room imports only rooms below it"


def test_conf_holds_no_code():
    assert [m for m in MODULES if m.startswith("conf")] == ["conf"]
    assert not GRAPH["conf"]


def test_no_import_cycle():
    """Depth-first search for a cycle over every import, the lazy ones in function bodies too."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for dep in sorted(GRAPH[m]):
            if state.get(dep) == 1:
                return stack[stack.index(dep) :] + [dep]
            if dep not in state and (cycle := visit(dep)):
                return cycle
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(GRAPH):
        if m not in state and (cycle := visit(m)):
            pytest.fail("import cycle: " + " -> ".join(cycle))


# --- conf/: the `_target_`s an app composes obey the same rules as its imports -----------------------

CONF = ROOT / "conf"
APP_CONFIGS = {
    "refine": "refine.cli",
    "eval": "evaluation.cli",
    "judge_run": "evaluation.judge_cli",
    "train": "training.cli",
    "train_text": "training.text.cli",
    "serve_judge": "rewards.judges.serve",
}
"""An app's primary config in conf/ -> the module that runs it (its room is the app's room)."""
DEBUG_APPS = {
    "rubricloop-refine": "refine",
    "rubricloop-eval": "eval",
    "rubricloop-judge": "judge_run",
    "rubricloop-train": "train",
}
"""A debug preset's ``debug_app`` -> the primary config it is composed with."""
EXPERIMENT_APPS = ("train", "train_text")
"""``+experiment=`` is rubricloop-train's (both its configs are in the training room)."""
KNOWN_CONFIG_ARROWS: dict[tuple[str, str], str] = {}
"""Arrows conf/ draws today that the rules forbid, each with its reason: listed so the test holds,
checked to still occur so the list only shrinks (fix one, delete its line)."""
_TARGET = re.compile(r"""_target_["']?\s*:\s*["']?([A-Za-z_][\w.]*)""")


def yaml_targets(path: Path) -> set[str]:
    """Every ``_target_`` string in a conf/ file, block style or inline (``[{_target_: a.B}]``),
    comments left out."""
    text = "\n".join(line.split(" #")[0] for line in path.read_text(encoding="utf-8").splitlines())
    return set(_TARGET.findall(text))


def app_groups(config: str) -> set[str]:
    """The config groups ``conf/<config>.yaml`` selects in its defaults list (``judge``, ``generator``...)."""
    node = yaml.safe_load((CONF / f"{config}.yaml").read_text(encoding="utf-8"))
    groups = set()
    for entry in node.get("defaults", []):
        if isinstance(entry, dict):
            groups |= {k for k in entry if not k.startswith("override ") and not k.startswith("hydra")}
    return groups


def app_files(config: str) -> list[Path]:
    """The conf/ files app ``config`` composes: its own, every choice of its groups, its debug
    presets and, for rubricloop-train, the experiments."""
    files = [CONF / f"{config}.yaml"]
    for group in sorted(app_groups(config) - {"debug"}):  # each debug preset belongs to one app
        files += sorted((CONF / group).glob("*.yaml"))
    for preset in sorted((CONF / "debug").glob("*.yaml")):
        if DEBUG_APPS.get(yaml.safe_load(preset.read_text(encoding="utf-8")).get("debug_app")) == config:
            files.append(preset)
    if config in EXPERIMENT_APPS:
        files += sorted((CONF / "experiment").glob("*.yaml"))
    return files


def target_module(target: str) -> str | None:
    """The project module a ``_target_`` lies in (``refine.generators.DiffusersGenerator`` ->
    ``refine.generators``), or None for a third-party one (``hydra_plugins...``)."""
    name = target
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def config_arrows(config: str) -> dict[str, list[str]]:
    """project module -> the conf/ files of app ``config`` whose ``_target_``s point there against
    the import rules of the app's room (``arrows_up``)."""
    app = APP_CONFIGS[config]
    found: dict[str, list[str]] = {}
    for path in app_files(config):
        for target in sorted(yaml_targets(path)):
            module = target_module(target)
            if module is not None and arrows_up(app, {module}):
                found.setdefault(module, []).append(str(path.relative_to(ROOT)))
    return found


def test_the_conf_walk_sees_the_targets():
    assert yaml_targets(CONF / "generator" / "tiny_sd3.yaml") == {"refine.generators.DiffusersGenerator"}
    rubric = yaml_targets(CONF / "rewards" / "rubric_ocr.yaml")
    assert {"rewards.reward_fns.RubricReward", "rewards.judges.ocr.OCRJudge"} <= rubric  # nested ones too
    assert app_groups("refine") == {"judge", "writer", "editor", "generator", "debug"}
    assert app_groups("eval") == {"judge", "generator", "debug"}
    assert CONF / "debug" / "refine_smoke.yaml" in app_files("refine")
    assert CONF / "debug" / "smoke.yaml" not in app_files("refine")
    assert target_module("refine.generators.DiffusersGenerator") == "refine.generators"
    assert target_module("hydra_plugins.hydra_submitit_launcher.X") is None


def test_every_target_points_at_a_module_of_the_project_or_a_library():
    """A ``_target_`` into one of our packages must name a module that exists (a moved class's
    old path would otherwise only fail when that preset is built)."""
    for path in sorted(CONF.rglob("*.yaml")):
        for target in yaml_targets(path):
            if target.split(".")[0] in PACKAGES:
                assert target_module(target) not in (None, *PACKAGES), (path, target)


@pytest.mark.parametrize("config", sorted(APP_CONFIGS))
def test_no_config_target_points_where_its_app_may_not_import(config):
    found = config_arrows(config)
    unknown = {m: files for m, files in found.items() if (config, m) not in KNOWN_CONFIG_ARROWS}
    assert not unknown, (
        f"conf/{config}.yaml's app ({APP_CONFIGS[config]}) may not import {sorted(unknown)}, but its configs "
        f"build them: {unknown}"
    )
    stale = sorted(m for c, m in KNOWN_CONFIG_ARROWS if c == config and m not in found)
    assert not stale, f"KNOWN_CONFIG_ARROWS lists {stale} for {config}, which no longer occur: delete them"


MAX_LINES = 600
"""The most lines a module of ``rewards/text`` may have (the project guide's limit)."""


def test_text_modules_are_small():
    sizes = {
        p: len(p.read_text(encoding="utf-8").splitlines()) for p in sorted((ROOT / "rewards" / "text").rglob("*.py"))
    }
    assert len(sizes) > 20, sizes  # the walk sees the three rooms
    long = {str(p.relative_to(ROOT)): n for p, n in sizes.items() if n > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines (split them by what they do): {long}"


TRAINING_WINGS = {
    "training.procedural": set(),
    "training.diffusion": {"training.procedural", "training.hall"},
    "training.recipes": {"training.diffusion", "training.procedural", "training.hall"},
    "training.text": {"training.procedural", "training.hall"},
}
"""Inside ``training`` (``training/__init__.py``): wing -> the wings it may import. The hall
(``training.cli``, ``console``, ``run_dir``, ``training`` itself) is shared; only ``training.cli``
imports every wing (it dispatches the image recipes and the text policies)."""


def training_wing(module: str) -> str:
    parts = module.split(".")
    return f"training.{parts[1]}" if len(parts) > 2 or f"training.{parts[-1]}" in TRAINING_WINGS else "training.hall"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("training.") and m != "training.cli"))
def test_training_wings_stay_apart(module):
    src = training_wing(module)
    allowed = TRAINING_WINGS.get(src, {"training.hall"}) | {src}
    bad = sorted(d for d in GRAPH[module] if d.startswith("training") and training_wing(d) not in allowed)
    assert not bad, f"{module} ({src}) imports {bad}: the wings of training import only {sorted(allowed)}"
