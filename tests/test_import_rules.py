"""The house rules of the package layout, read off the code with ``ast`` (no module is imported).

Each room imports only rooms below it (the order is written in ``rewards/__init__.py``,
``refine/__init__.py`` and ``training/__init__.py``), and no module imports itself back through
others, counting imports inside function bodies too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rewards", "refine", "training", "conf")

# room -> rank; a module may import its own room or a room of lower rank.
RANKS = {
    "rewards.common": 0,
    "rewards.models": 1,
    "rewards.text": 2,
    "rewards.core": 3,  # rubric, importers, image_stats, leakage, toy_rewards (top of rewards/)
    "rewards.judges": 4,
    "rewards.scorers": 4,
    "rewards.reward_fns": 5,
    "rewards.eval": 6,
    "refine": 7,
    "training": 8,  # the instruction writer is trained on refine's writer prompt and editors (training.text)
}
TRAINING_FROM_REFINE = {"refine.interfaces", "refine.writers.local_vlm"}
"""All of refine that training may import: the writer's request (the instruction writer is trained
on exactly the prompt refine's trained writer sends) and the editor protocol; never the loop."""
NEVER = {("refine", "rewards.eval"), ("training", "rewards.eval")}  # eval is an application, not a library


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room(module: str) -> str:
    """The room of a dotted module name (``rewards.text.grounding`` -> ``rewards.text``)."""
    parts = module.split(".")
    if parts[0] != "rewards":
        return parts[0]
    if len(parts) == 1:
        return "rewards.core"
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
    assert room("rewards.text.grounding") == "rewards.text" and room("rewards.rubric") == "rewards.core"
    assert room("rewards") == "rewards.core" and room("refine.editors.diffusers") == "refine"


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
            or (src, room(d)) in NEVER
            or (src == "training" and room(d) == "refine" and d not in TRAINING_FROM_REFINE)
        )
    )


def test_the_rule_catches_an_arrow_up(tmp_path):
    path = tmp_path / "x.py"
    path.write_text("def f():\n    from refine.loop import RefineLoop\n    from rewards.common import images\n")
    deps = imports_of(path, "rewards.common.x", set(MODULES))
    assert deps == {"refine.loop", "rewards.common.images"}
    assert arrows_up("rewards.common.x", deps) == ["refine.loop"]
    assert arrows_up("training.x", {"rewards.eval.cli", "rewards.rubric", "refine.loop", "refine.interfaces"}) == [
        "refine.loop",
        "rewards.eval.cli",
    ]
    assert arrows_up("rewards.judges.x", {"rewards.scorers.coverage", "rewards.text.text_match"}) == [
        "rewards.scorers.coverage"
    ]


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
