"""``rewards.common.task``: the exit status of every console script (an app's int, 130 on Ctrl-C,
2 on an option error before Hydra runs)."""

import sys

import pytest

from rewards.common.task import run_console_script, task_wrapper


def exit_code(fn) -> int:
    with pytest.raises(SystemExit) as e:
        fn()
    return e.value.code


def test_the_apps_status_is_the_exit_status():
    assert task_wrapper(lambda: 0)() is None and task_wrapper(lambda: None)() is None
    assert exit_code(task_wrapper(lambda: 1)) == 1
    assert exit_code(lambda: run_console_script(lambda: 2)) == 2


def test_ctrl_c_the_app_let_through_exits_130_in_one_line(capsys):
    def app():
        raise KeyboardInterrupt

    assert exit_code(lambda: run_console_script(app)) == 130
    assert capsys.readouterr().err == "\ninterrupted\n"


def test_an_option_error_exits_2_before_the_app_runs(monkeypatch, capsys):
    ran = []
    monkeypatch.setattr(sys, "argv", ["rubricloop-refine", "bogus=1"])
    assert exit_code(lambda: run_console_script(lambda: ran.append(1), config_name="refine")) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("error: Could not override 'bogus'") and ran == []
