"""Issue 35 case 4: a corrupt ``wandb_run_id`` was replaced without a word, so the W&B history of
one run folder split into two runs. Now one line says a new run was started, and why."""

from __future__ import annotations

from rewards.common.wandb_run import WANDB_ID_FILE, kept_run_id


def test_a_corrupt_run_id_file_says_a_new_run_was_started_and_why(tmp_path, capsys):
    (tmp_path / WANDB_ID_FILE).write_text("abc/../12 3\n")
    run_id = kept_run_id(tmp_path)
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err == (
        f"warning: {tmp_path / WANDB_ID_FILE} holds no W&B run id ('abc/../12 3'): logging into a new W&B run "
        f"{run_id}, so this folder's W&B history continues there, apart from the earlier run (write the earlier "
        "run's id into the file to log into it instead)\n"
    )
    assert (tmp_path / WANDB_ID_FILE).read_text() == run_id + "\n"
    assert kept_run_id(tmp_path) == run_id and capsys.readouterr().err == ""  # now kept, silently


def test_a_corrupt_run_id_file_takes_the_run_wandb_made_in_the_folder(tmp_path, capsys):
    (tmp_path / "wandb" / "offline-run-20260101_090000-old1").mkdir(parents=True)
    (tmp_path / "wandb" / "offline-run-20260101_090000-old1" / "run-old1.wandb").write_bytes(b":W&B")
    (tmp_path / WANDB_ID_FILE).write_bytes(b"\xff\xfe")
    assert kept_run_id(tmp_path) == "old1"
    err = capsys.readouterr().err
    assert err.startswith(f"warning: {tmp_path / WANDB_ID_FILE} holds no W&B run id (not UTF-8 text): logging into ")
    assert "W&B run old1, the newest in " in err and err.count("\n") == 1
    assert (tmp_path / WANDB_ID_FILE).read_text() == "old1\n"


def test_training_resume_with_a_corrupt_run_id_says_so(tmp_path, capsys):
    from training.run_dir import stored_run_id

    assert stored_run_id(tmp_path) is None and capsys.readouterr().err == ""  # no file: W&B was off, no word
    (tmp_path / WANDB_ID_FILE).write_text("")
    assert stored_run_id(tmp_path) is None
    err = capsys.readouterr().err
    assert err.startswith(
        f"warning: {tmp_path / WANDB_ID_FILE} holds no W&B run id (empty): the resume logs into a new"
    )
