"""A rerun never reports an item as done when what it was judged from changed: its rubric, prompt,
image bytes or the judge's settings (``rewards.fingerprint``), for rubricloop-judge and the refine
loop; item folders never merge; a corrupted run.json is one line naming it."""

import copy
import json
import random
import string

import pytest
from hydra import compose, initialize_config_module
from PIL import Image
from refine_rows import text_page, text_row, write_rows

from evaluation import judge_cli
from refine.item_results import item_dir_names, read_result
from refine.loop import RefineLoop
from refine.writers.template import TemplateWriter
from rewards.common.run_folder import SettingsError, check_settings
from rewards.rubric import Check, Criterion, Item, Rubric, Verdict

WORDS = ["Net Profit", "Road Map", "Key Risks", "Cash Flow"]


def judge_rows(folder, n=3):
    """``n`` rows, each a page with one word pair and two OCR checks (one passes, one fails)."""
    rows = []
    for k in range(n):
        text_page(WORDS[k]).save(folder / f"p{k}.png")
        row = text_row(f"p{k}", f"p{k}.png", WORDS[k])
        other = WORDS[(k + 1) % len(WORDS)]
        row["criteria"][0]["checks"].append(
            {"id": "u", "question": f"Does it read '{other}'?", "expects": [{"text": other}]}
        )
        rows.append(row)
    return rows


def judge_cfg(data, out, *extra):
    with initialize_config_module("conf", version_base="1.3"):
        return compose("judge_run", overrides=[f"data={data}", f"out={out}", *extra])


def lines_of(out, item_id=None):
    lines = [json.loads(ln) for ln in (out / "verdicts.jsonl").read_text().splitlines()]
    return [ln for ln in lines if item_id is None or ln["item_id"] == item_id]


def test_judge_redoes_an_item_whose_expected_text_changed(tmp_path, capsys):
    """The tester's case: the expected text of p0 changes; the rerun said "3 already done" and
    paired the new question with the old answer."""
    rows = judge_rows(tmp_path)
    data, out = write_rows(tmp_path, rows), tmp_path / "out"
    assert judge_cli.run(judge_cfg(data, out)) == 0
    assert [ln["answer"] for ln in lines_of(out, "p0")] == ["yes", "no"]
    kept = lines_of(out, "p1") + lines_of(out, "p2")
    capsys.readouterr()

    rows[0]["criteria"][0]["checks"][0] = {
        "id": "t",
        "question": "Does it read 'Road Map'?",
        "expects": [{"text": "Road Map"}],
    }
    write_rows(tmp_path, rows)
    assert judge_cli.run(judge_cfg(data, out)) == 0
    printed = capsys.readouterr().out
    assert "judging 1 of 3 items" in printed and "1 items redone because their data changed" in printed
    p0 = lines_of(out, "p0")
    assert [(ln["question"], ln["answer"]) for ln in p0][0] == ("Does it read 'Road Map'?", "no")
    assert lines_of(out, "p1") + lines_of(out, "p2") == kept
    assert len({ln["fingerprint"] for ln in p0}) == 1 and p0[0]["fingerprint"] != kept[0]["fingerprint"]


def test_judge_redoes_items_of_a_file_written_without_fingerprints(tmp_path, capsys):
    data, out = write_rows(tmp_path, judge_rows(tmp_path, n=2)), tmp_path / "out"
    assert judge_cli.run(judge_cfg(data, out)) == 0
    first = lines_of(out)
    (out / "verdicts.jsonl").write_text(
        "".join(json.dumps({k: v for k, v in ln.items() if k != "fingerprint"}) + "\n" for ln in first)
    )
    capsys.readouterr()
    assert judge_cli.run(judge_cfg(data, out)) == 0
    printed = capsys.readouterr().out
    assert "judging 2 of 2 items" in printed and "2 items redone because their data changed" in printed
    assert lines_of(out) == first


def mutate_row(rng: random.Random, row: dict, folder) -> str:
    """Change one thing a verdict depends on in ``row`` (or its image file); returns what."""
    checks = row["criteria"][0]["checks"]
    check = rng.choice(checks)
    word = "".join(rng.choice(string.ascii_letters) for _ in range(rng.randint(1, 6)))
    kind = rng.choice(["question", "expects", "check id", "weight", "image", "prompt", "gate", "new check"])
    if kind == "question":
        check["question"] += f" {word}"
    elif kind == "expects":
        check["expects"] = [{"text": word}]
    elif kind == "check id":
        check["id"] += word
    elif kind == "weight":
        check["weight"] = check.get("weight", 1.0) + rng.choice([0.5, 1.0, 2.0])
    elif kind == "image":  # one pixel: OCR reads the same, but the bytes changed
        path = folder / row["image"]
        im = Image.open(path).convert("RGB")
        x, y = rng.randrange(im.width), rng.randrange(im.height)
        im.putpixel((x, y), tuple((c + 128) % 256 for c in im.getpixel((x, y))))
        im.save(path)
    elif kind == "prompt":
        row["prompt"] += f" {word}"
    elif kind == "gate":
        check["gate"] = not check.get("gate", False)
    else:
        checks.append({"id": f"n{word}", "question": f"Does it read '{word}'?", "expects": [{"text": word}]})
    return kind


@pytest.mark.parametrize("seed", [0, 1])
def test_fuzz_judge_any_change_is_redone_or_refused_never_done(tmp_path, capsys, seed):
    """Random mutations of one row at a time (question, expected text, check id, weight, image
    bytes, prompt, gate, an added check), a judge option changed, and an untouched rerun: only
    the mutated item is judged again, its lines are the new rubric's, the others' lines are kept;
    a judge option is refused (exit 2) and leaves the verdicts as they were."""
    rng = random.Random(seed)
    rows = judge_rows(tmp_path)
    data, out = write_rows(tmp_path, rows), tmp_path / "out"
    assert judge_cli.run(judge_cfg(data, out)) == 0
    for _ in range(5):
        capsys.readouterr()
        before = (out / "verdicts.jsonl").read_text()
        if rng.random() < 0.2:  # the judge's settings: refused at run level (run.json), nothing redone
            option = rng.choice(
                ["judge.judges.0.max_lines=3", "judge.judges.0.lenient=true", "judge.judges.0.scale=1.5"]
            )
            assert judge_cli.run(judge_cfg(data, out, option)) == 2
            assert "holds a run made with another judge" in capsys.readouterr().err
            assert (out / "verdicts.jsonl").read_text() == before
            continue
        k = rng.randrange(len(rows))
        kind = mutate_row(rng, rows[k], tmp_path)
        write_rows(tmp_path, rows)
        assert judge_cli.run(judge_cfg(data, out)) == 0, kind
        printed = capsys.readouterr().out
        assert f"judging 1 of {len(rows)} items" in printed and "1 items redone because" in printed, (kind, printed)
        new = lines_of(out, rows[k]["id"])
        expected = [(c["id"], c["question"]) for c in rows[k]["criteria"][0]["checks"]]
        assert [(ln["check"], ln["question"]) for ln in new] == expected, kind
        others = [ln for ln in map(json.loads, before.splitlines()) if ln["item_id"] != rows[k]["id"]]
        assert sorted(others, key=lambda ln: ln["item_id"]) == [
            ln for ln in lines_of(out) if ln["item_id"] != rows[k]["id"]
        ], kind  # kept, in the data's order
    capsys.readouterr()
    write_rows(tmp_path, rows)  # the same data written again: nothing changed, nothing redone
    assert judge_cli.run(judge_cfg(data, out)) == 0
    printed = capsys.readouterr().out
    assert "judging 0 of 3 items" in printed and "redone" not in printed


# --- the refine loop, at the function level ---


class CountingJudge:
    """Answers every check "yes" and records the prompt of each item it judged."""

    name = "count"

    def __init__(self):
        self.prompts = []

    def judge(self, images, prompts, checks):
        self.prompts += prompts
        return [[Verdict(c.id, "yes", self.name) for c in cs] for cs in checks]


class NoEdit:
    name = "none"

    def edit(self, image, instruction, failures, seed):
        return image


def refine_items(folder, n=3) -> list[Item]:
    items = []
    for k in range(n):
        path = folder / f"r{k}.png"
        Image.new("RGB", (8, 8), (10 * k, 0, 0)).save(path)
        checks = (Check("a", f"question {k}", expects=()), Check("b", "is it red?", weight=1.0))
        items.append(Item(f"r{k}", f"prompt {k}", Rubric((Criterion("c", checks),)), image=path))
    return items


def mutate_item(rng: random.Random, item: Item) -> tuple[Item, str]:
    """``item`` with one thing its verdicts depend on changed (the image in place); and what."""
    [crit] = item.rubric.criteria
    i = rng.randrange(len(crit.checks))
    c = crit.checks[i]
    word = "".join(rng.choice(string.ascii_letters) for _ in range(rng.randint(1, 6)))
    kind = rng.choice(["question", "check id", "weight", "image", "prompt", "difficulty", "tag"])
    if kind == "image":
        im = Image.open(item.image).convert("RGB")
        im.putpixel((rng.randrange(8), rng.randrange(8)), (rng.randrange(256), 255, 255))
        im.save(item.image)
        return item, kind
    if kind == "prompt":
        return Item(item.id, item.prompt + word, item.rubric, image=item.image), kind
    changed = {
        "question": dict(question=c.question + word),
        "check id": dict(id=c.id + word),
        "weight": dict(weight=c.weight + 1.0),
        "difficulty": dict(difficulty="hard" if c.difficulty != "hard" else "easy"),
        "tag": dict(tag=(c.tag or "") + word),
    }[kind]
    checks = list(crit.checks)
    checks[i] = Check(**{**{f: getattr(c, f) for f in ("id", "question", "difficulty", "weight", "tag")}, **changed})
    rubric = Rubric((Criterion(crit.name, tuple(checks)),))
    return Item(item.id, item.prompt, rubric, image=item.image), kind


def test_fuzz_refine_any_change_is_redone_never_done(tmp_path):
    rng = random.Random(7)
    items, out = refine_items(tmp_path), tmp_path / "out"

    def loop(judge, lenient=False):
        return RefineLoop(judge, TemplateWriter(), NoEdit(), iterations=0, run_settings={"judge": {"lenient": lenient}})

    assert loop(CountingJudge()).run(items, out)["n_finished"] == 3
    for _ in range(12):
        k = rng.randrange(len(items))
        items[k], kind = mutate_item(rng, items[k])
        assert loop(CountingJudge()).finished(items, out) == 2, kind
        assert loop(CountingJudge()).changed(items, out) == 1, kind
        judge = CountingJudge()
        summary = loop(judge).run(items, out)
        assert judge.prompts == [items[k].prompt], kind  # the changed item only, judged again
        assert summary["n_finished"] == 3
        assert [
            v["check"] for v in map(json.loads, (out / items[k].id / "verdicts.jsonl").read_text().splitlines())
        ] == [c.id for c in items[k].rubric.checks], kind
    judge = CountingJudge()
    loop(judge).run(copy.deepcopy(items), out)
    assert judge.prompts == []  # nothing changed: nothing judged
    with pytest.raises(SettingsError, match="holds a run made with another judge"):  # refused at run level
        loop(judge, lenient=True).run(items, out)
    assert judge.prompts == []


def test_refine_result_without_a_fingerprint_is_redone(tmp_path):
    items, out = refine_items(tmp_path, n=1), tmp_path / "out"
    RefineLoop(CountingJudge(), TemplateWriter(), NoEdit(), iterations=0).run(items, out)
    result = out / "r0" / "result.json"
    assert read_result(result) is not None
    recorded = json.loads(result.read_text())
    assert len(recorded.pop("fingerprint")) == 16
    result.write_text(json.dumps(recorded))  # as written before fingerprints
    judge = CountingJudge()
    RefineLoop(judge, TemplateWriter(), NoEdit(), iterations=0).run(items, out)
    assert judge.prompts == ["prompt 0"]


def test_refine_cli_says_how_many_items_were_redone(tmp_path, capsys, monkeypatch):
    from refine.cli import run

    monkeypatch.setenv("WANDB_MODE", "disabled")
    rows = []
    for k in range(2):
        text_page(WORDS[k]).save(tmp_path / f"p{k}.png")
        rows.append(text_row(f"p{k}", f"p{k}.png", WORDS[k]))
    data, out = write_rows(tmp_path, rows), tmp_path / "out"
    with initialize_config_module("conf", version_base="1.3"):
        cfg = compose("refine", overrides=[f"data={data}", f"out={out}", "iterations=0"])
    assert run(cfg) == 0
    rows[1]["criteria"][0]["checks"][0]["expects"] = [{"text": "Key Risks"}]
    write_rows(tmp_path, rows)
    capsys.readouterr()
    assert run(cfg) == 1 - 1
    printed = capsys.readouterr().out
    assert "refining 1 of 2 items" in printed and "1 items redone because their data changed" in printed
    assert json.loads((out / "p1" / "verdicts.jsonl").read_text().splitlines()[0])["answer"] == "no"


# --- item folders ---


def test_an_id_equal_to_another_items_hashed_folder_gets_its_own_folder(tmp_path):
    ids = ["a b", "a_b"]
    ids += [item_dir_names(ids)[0], "a_b-7dbde935"]  # the folder "a b" gets, now and before the fix
    names = item_dir_names(ids)
    assert len(set(names)) == 4
    Image.new("RGB", (8, 8)).save(tmp_path / "x.png")
    items = [Item(i, f"prompt {i}", Rubric.flat([Check("q", "q?")]), image=tmp_path / "x.png") for i in ids]
    judge = CountingJudge()
    summary = RefineLoop(judge, TemplateWriter(), NoEdit(), iterations=0).run(items, tmp_path / "out")
    assert summary["n_finished"] == 4 and len(judge.prompts) == 4
    assert sorted(read_result(tmp_path / "out" / n / "result.json").id for n in names) == sorted(ids)


def test_item_folder_names_are_distinct_and_stable_for_random_id_sets():
    rng = random.Random(3)
    alphabet = "aAbB_- .é/\ud800"  # a lone surrogate: JSON allows it
    for _ in range(300):
        ids = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(1, 12))}
        ids |= {n for n in item_dir_names(sorted(ids)) if rng.random() < 0.5}  # ids equal to hashed folders
        ids |= {"x" * rng.randint(95, 110) for _ in range(2)}  # cut to 91 + a hash
        ids = sorted(ids)
        names = item_dir_names(ids)
        assert len({n.casefold() for n in names}) == len(ids), ids  # distinct on a case-blind disk too
        shuffled = rng.sample(ids, len(ids))
        assert dict(zip(shuffled, item_dir_names(shuffled))) == dict(zip(ids, names))  # stable
        assert all(n and not n.startswith(".") and "/" not in n and len(n) <= 150 for n in names)


# --- a corrupted run.json ---


@pytest.mark.parametrize("text", ["{truncated", "[1, 2]", "null", "\xff\xfe"])
def test_a_corrupted_run_json_is_one_line_naming_it(tmp_path, text):
    path = tmp_path / "run.json"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(SettingsError) as e:
        check_settings(path, {"a": 1}, lambda before: "refused")
    line = str(e.value)
    assert "\n" not in line and str(path) in line and "delete it" in line and "new out=" in line


def test_judge_and_refine_exit_2_on_a_corrupted_run_json(tmp_path, capsys, monkeypatch):
    from refine.cli import run as refine_run

    monkeypatch.setenv("WANDB_MODE", "disabled")
    data = write_rows(tmp_path, judge_rows(tmp_path, n=1))
    for name, run, cfg in (
        ("judge", judge_cli.run, lambda out: judge_cfg(data, out)),
        ("refine", refine_run, lambda out: refine_cfg(data, out)),
    ):
        out = tmp_path / name
        out.mkdir()
        (out / "run.json").write_text('{"data": ')
        capsys.readouterr()
        assert run(cfg(out)) == 2, name
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"error: {out / 'run.json'}: ") and "delete it" in err, err


def refine_cfg(data, out):
    with initialize_config_module("conf", version_base="1.3"):
        return compose("refine", overrides=[f"data={data}", f"out={out}", "iterations=0"])
