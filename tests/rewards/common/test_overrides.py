"""Option typos on the command line: one line naming the option and its nearest spelling, and an
added top-level key (``+iteratons=2``) refused, since the app would silently ignore it."""

import pytest

from rewards.common.one_line import check_overrides, ignored_addition


def test_a_misspelt_option_names_the_nearest_option_not_the_plus_advice():
    problem = check_overrides(["iteratons=2"], "refine")
    assert problem == "Could not override 'iteratons': no such option (did you mean 'iterations'?)"
    assert check_overrides(["bogus=1"], "judge_run") == "Could not override 'bogus': no such option"


def test_an_added_top_level_key_the_app_never_reads_is_refused():
    # Hydra composes it, and rubricloop-refine ran with 3 iterations, ignoring it
    problem = check_overrides(["limit=1", "+iteratons=2"], "refine")
    assert problem == (
        "+iteratons=2: conf/refine.yaml has no option 'iteratons', so the app would ignore it "
        "(did you mean 'iterations'?)"
    )
    assert check_overrides(["+jugde=ocr"], "judge_run").endswith("(did you mean 'judge'?)")
    assert "(did you mean 'resume'?)" in check_overrides(["+experiment=tiny_layout", "+reusme=true"], "train")


def test_additions_the_apps_read_still_compose():
    assert check_overrides(["+experiment=tiny_layout", "+trainer.steps=3"], "train") is None
    assert check_overrides(["+rewards.rubric.fn.cache=x.sqlite"], "train") is None
    assert check_overrides(["iterations=2", "out=/tmp/o"], "refine") is None
    # a nested key: the component refuses it itself (``trainer: unknown field(s)``), so Hydra's advice stands
    assert check_overrides(["trainer.lora_rnak=4"], "train").startswith("Could not override 'trainer.lora_rnak'.")


def test_rubricloop_train_refuses_an_added_key_it_would_ignore():
    # it trained from step 0 with "+reusme=true": rubricloop-train composes its config itself
    problem = ignored_addition(["task=prompt_rewriter", "+experiment=tiny_rewriter_quotes", "+reusme=1"], "train_text")
    assert (
        problem
        == "+reusme=1: conf/train_text.yaml has no option 'reusme', so the app would ignore it (did you mean 'resume'?)"
    )
    assert ignored_addition(["+experiment=tiny_layout", "resume=true"], "train") is None
    assert ignored_addition(["--cfg", "job", "+foo=1"], "train") is None  # Hydra's own flags are Hydra's
    assert ignored_addition(["trainer=nosuch", "+foo=1"], "train") is None  # the app reports the bad choice itself


def test_a_misspelt_wandb_mode_is_an_option_error_before_the_run():
    # refine and eval passed it to wandb.init: a pydantic traceback, exit 1, a run folder left behind
    from omegaconf import OmegaConf

    from evaluation.cli import OptionError, check_options
    from rewards.common.wandb_mode import mode_problem

    assert mode_problem(OmegaConf.create({"wandb": {"mode": "offline"}})) is None
    assert mode_problem(OmegaConf.create({"other": 1})) is None
    cfg = compose_eval(["benchmark=bizgeneval", "data=x.jsonl", "results=.", "out=o", "wandb.mode=ofline"])
    with pytest.raises(
        OptionError, match="wandb.mode must be one of 'auto', 'online', 'offline', 'disabled', got 'ofline'"
    ):
        check_options(cfg)


def compose_eval(overrides):
    from hydra import compose, initialize_config_module

    with initialize_config_module(config_module="conf", version_base="1.3"):
        return compose(config_name="eval", overrides=overrides)


@pytest.mark.parametrize(
    "build, line",
    [
        (lambda: _judge(case_sensitive="flase"), "OCRJudge: case_sensitive must be true or false, got 'flase'"),
        (lambda: _editor(look_harder="flase"), "TextEditor: look_harder must be true or false, got 'flase'"),
        (lambda: _editor(max_chars="abc"), "TextEditor: max_chars must be an integer >= 1, got 'abc'"),
        (lambda: _editor(scale=0), "TextEditor: scale must be a number > 0, got 0"),
    ],
)
def test_a_mistyped_judge_or_editor_option_is_one_line(build, line):
    # "judge.judges.0.case_sensitive=flase" is the string 'flase', and a string is true: it ran case-sensitive;
    # "editor.max_chars=abc" was "editor: TypeError: '<' not supported ..."; "editor.scale=0" ran
    with pytest.raises(ValueError) as caught:
        build()
    assert str(caught.value) == line


def _editor(**options):
    from refine.editors.text import TextEditor

    return TextEditor(**options)


def _judge(**options):
    from rewards.judges.ocr import OCRJudge

    return OCRJudge(**options)
