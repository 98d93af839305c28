"""Error paths that must never lose data or exit 1 (issue 15, first items)."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from poimkit.datasets import make_gattaca
from poimkit.errors import InputError
from poimkit.io import write_fasta
from poimkit.outdir import OWNER_FILE, remove_stale_staging, staged_directory

from .cli_runs import FAST, main


def test_force_never_deletes_a_folder_poimkit_did_not_make(data, capsys):
    before = sorted(p.name for p in data.iterdir())
    args = ["run", "--pos", data / "p.fa", "--neg", data / "n.fa", *FAST]
    assert main([*args, "-o", data, "--force"]) == 2
    assert "holds the input" in capsys.readouterr().err
    assert sorted(p.name for p in data.iterdir()) == before

    other = data.parent / "notes"
    other.mkdir()
    (other / "mine.txt").write_text("keep me")
    assert main([*args, "-o", other, "--force"]) == 2
    assert "not made by poimkit" in capsys.readouterr().err
    assert (other / "mine.txt").read_text() == "keep me"

    out = data.parent / "out"
    assert main([*args, "-o", out]) == 0
    (out / "mine.txt").write_text("keep me too")
    assert main([*args, "-o", out, "--force"]) == 2
    assert "holds files poimkit did not write (mine.txt)" in capsys.readouterr().err
    (out / "mine.txt").unlink()
    assert main([*args, "-o", out, "--force"]) == 0  # its own folder: replaced
    assert json.loads((out / "summary.json").read_text())["format"]


def test_current_folder_and_its_parents_are_refused(data, monkeypatch, capsys):
    monkeypatch.chdir(data)
    args = ["run", "--pos", "p.fa", "--neg", "n.fa", *FAST, "--force"]
    for out in (".", ".."):
        assert main([*args, "-o", out]) == 2
        assert "current folder or one of its parents" in capsys.readouterr().err
    assert sorted(p.name for p in data.iterdir()) == ["n.fa", "p.fa"]
    assert not [p for p in data.parent.iterdir() if p.name.startswith("..")]


def test_stale_staging_folders_are_removed(tmp_path, capsys):
    out = tmp_path / "out"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / ".out.partial-abc"
    stale.mkdir()
    (stale / OWNER_FILE).write_text(str(dead.pid))
    live = tmp_path / ".out.partial-live"
    live.mkdir()
    (live / OWNER_FILE).write_text(str(os.getpid()))
    foreign = tmp_path / ".out.partial-foreign"  # not ours: no owner file
    foreign.mkdir()
    with staged_directory(out) as staged:
        (staged / "a.txt").write_text("done")
    assert "left by an interrupted run" in capsys.readouterr().err
    assert not stale.exists() and live.exists() and foreign.exists()
    assert sorted(p.name for p in out.iterdir()) == ["a.txt"]
    assert remove_stale_staging(out) == []


def test_fasta_given_as_model_never_mentions_pickle(data, tmp_path, capsys):
    out = tmp_path / "s.tsv"
    assert main(["score", data / "p.fa", data / "n.fa", "-o", out]) == 2
    err = capsys.readouterr().err
    assert "not a poimkit model file (.npz)" in err and "pickle" not in err


def test_outputs_checked_before_any_work(data, tmp_path, capsys):
    pos, neg = data / "p.fa", data / "n.fa"
    code = main(
        ["train", "--pos", pos, "--neg", neg, "-o", tmp_path / "missing" / "m.npz"]
    )
    assert code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "does not exist" in captured.err
    run = ["run", "--pos", pos, "--neg", neg, *FAST, "-o", tmp_path / "o"]
    assert main([*run, "--memory-limit", "-1"]) == 2
    assert "must be positive" in capsys.readouterr().err


def test_read_only_folder_exits_2(data, tmp_path, monkeypatch, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    if os.access(locked, os.W_OK):  # root writes anyway: refuse at the OS call
        real = os.access
        monkeypatch.setattr(
            os, "access", lambda p, m: False if str(p) == str(locked) else real(p, m)
        )
    args = ["--pos", data / "p.fa", "--neg", data / "n.fa"]
    assert main(["train", *args, "-o", locked / "m.npz"]) == 2
    assert "is not writable" in capsys.readouterr().err
    assert main(["run", *args, *FAST, "-o", locked / "out"]) == 2
    assert "is not writable" in capsys.readouterr().err
    locked.chmod(0o700)


def test_write_failures_exit_2_with_the_path(data, tmp_path, monkeypatch, capsys):
    """Disk full (or any OS refusal) at the write: one line, exit 2."""
    import errno

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "m.npz"))

    monkeypatch.setattr("poimkit.svm._base.write_npz", full)
    args = ["train", "--pos", data / "p.fa", "--neg", data / "n.fa", "--no-grid"]
    assert main([*args, "--cv", "0", "-o", tmp_path / "m.npz"]) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and "m.npz" in err
    assert "internal error" not in err


def test_sigterm_exits_143(tmp_path):
    X, y = make_gattaca(n_pos=1500, n_neg=1500, length=60, random_state=0)
    pos, neg = tmp_path / "p.fa", tmp_path / "n.fa"
    write_fasta(pos, [f"p{i}" for i in range(1500)], X[y == 1])
    write_fasta(neg, [f"n{i}" for i in range(1500)], X[y == 0])
    out = tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, "-m", "poimkit.cli", "run", "--pos", pos, "--neg", neg]
        + ["-o", out, "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )
    deadline = time.monotonic() + 120
    while not any(p.name.startswith(".out.partial-") for p in tmp_path.iterdir()):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.5)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 143, err
    assert "terminated" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n.fa", "p.fa"]


STUCK = """
import sys
from numba import njit
import poimkit.cli as cli
from poimkit.outdir import staged_directory

@njit(nogil=True)
def spin(n):  # a compiled kernel: no Python line (nor signal handler) runs
    x = 0.0
    for _ in range(n):
        x = x * 0.999999 + 1.0
    return x

def stuck(args):
    spin(10)  # compiled before the signal
    with staged_directory(sys.argv[-1]):
        print("staged", flush=True)
        spin(10**11)  # about a minute or more
    return 0

cli._COMMANDS["train"] = stuck
sys.exit(cli.main())
"""


@pytest.mark.parametrize(("name", "code"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_signals_act_at_once_inside_compiled_code(tmp_path, name, code):
    """Before, a signal waited for the running kernel (8-53 s in kernel CV)."""
    script = tmp_path / "stuck.py"
    script.write_text(STUCK)
    out = tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, script, "train", "--pos", "p", "--neg", "n", "-o", out],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout.readline() == "staged\n"
        process.send_signal(getattr(signal, name))
        _, err = process.communicate(timeout=30)  # the kernel takes over a minute
    finally:
        process.kill()
    assert process.returncode == code, err
    assert err.strip() == f"poimkit: {'interrupted' if code == 130 else 'terminated'}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stuck.py"]


def test_check_output_folder_rules(tmp_path):
    from poimkit.outdir import check_output_folder

    with pytest.raises(InputError, match="does not exist"):
        check_output_folder(tmp_path / "a" / "b")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert check_output_folder(empty, force=True) == empty.resolve()


def test_poim_memory_checked_before_training(data, tmp_path, capsys, monkeypatch):
    import poimkit.run.pipeline as pipeline

    def no_training(*args, **kwargs):
        raise AssertionError("trained before the memory check")

    monkeypatch.setattr(pipeline, "train_model", no_training)
    args = ["run", "--pos", data / "p.fa", "--neg", data / "n.fa", *FAST]
    assert main([*args, "--max-order", "14", "-o", tmp_path / "o"]) == 2
    assert "over the limit" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_second_output_checked_before_the_first_is_written(
    data, tmp_path, monkeypatch, capsys
):
    locked = tmp_path / "locked"
    locked.mkdir()
    real = os.access
    monkeypatch.setattr(
        os, "access", lambda p, m: False if str(p) == str(locked) else real(p, m)
    )
    args = ["--pos", data / "p.fa", "--neg", data / "n.fa", "--no-grid", "--cv", "0"]
    assert main(["train", *args, "--degree", "4", "-o", tmp_path / "m.npz"]) == 0
    poim = tmp_path / "p.npz"
    code = main(["poim", tmp_path / "m.npz", "-o", poim, "--top-tsv", locked / "t.tsv"])
    assert code == 2 and not poim.exists()
    assert main(["poim", tmp_path / "m.npz", "--max-order", "3", "-o", poim]) == 0
    meme = tmp_path / "m.meme"
    code = main(["motifs", poim, "-o", meme, "--logos", locked / "logos"])
    assert code == 2 and not meme.exists()
    assert "is not writable" in capsys.readouterr().err


def test_outputs_of_one_command_appear_together_or_not_at_all(
    data, tmp_path, monkeypatch, capsys
):
    """A disk filling up at the second output took the first one with it."""
    import errno

    from poimkit.poim import Poim

    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", "the second output")

    args = ["--pos", data / "p.fa", "--neg", data / "n.fa", "--no-grid", "--cv", "0"]
    assert main(["train", *args, "--degree", "4", "-o", tmp_path / "m.npz"]) == 0
    poim, top = tmp_path / "p.npz", tmp_path / "top.tsv"
    with monkeypatch.context() as patch:
        patch.setattr(Poim, "write_top", disk_full)
        code = main(["poim", tmp_path / "m.npz", "-o", poim, "--top-tsv", top])
    assert code == 2 and "No space left on device" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "m.npz"]
    assert main(["poim", tmp_path / "m.npz", "--max-order", "3", "-o", poim]) == 0

    import poimkit.plot

    meme, logos = tmp_path / "m.meme", tmp_path / "logos"
    motifs = ["motifs", poim, "--pos", data / "p.fa", "--neg", data / "n.fa"]
    with monkeypatch.context() as patch:
        patch.setattr(poimkit.plot, "plot_logo", disk_full)
        code = main(
            [*motifs, "-o", meme, "--sites", tmp_path / "s.tsv", "--logos", logos]
        )
    assert code == 2, capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "m.npz", "p.npz"]
    assert main([*motifs, "-o", meme, "--logos", logos]) == 0
    assert meme.exists() and logos.is_dir()


def test_train_with_too_few_of_a_class_exits_2(tmp_path, capsys):
    X, y = make_gattaca(n_pos=10, n_neg=10, length=16, mean=5, sd=1, random_state=0)
    pos, neg = tmp_path / "p.fa", tmp_path / "n.fa"
    write_fasta(pos, [f"p{i}" for i in range(10)], X[y == 1])
    write_fasta(neg, ["n0", "n1"], X[y == 0][:2])
    assert main(["train", "--pos", pos, "--neg", neg, "-o", tmp_path / "m.npz"]) == 2
    captured = capsys.readouterr()
    assert "nan" not in captured.out and "at least 5" in captured.err
    assert not (tmp_path / "m.npz").exists()


def test_cv_0_means_no_cross_validation_in_train_and_run(data, tmp_path, capsys):
    args = ["--pos", data / "p.fa", "--neg", data / "n.fa", "--cv", "0"]
    assert main(["train", *args, "--no-grid", "-o", tmp_path / "m.npz"]) == 0
    assert "cv_auc" not in capsys.readouterr().out
    run = ["run", *args, "--no-grid", "--degree", "4", "--max-order", "2"]
    assert main([*run, "--quiet", "-o", tmp_path / "o"]) == 0
    out = capsys.readouterr().out
    assert "no cross-validation (--cv 0)" in out and "nan" not in out
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["cv_auc"] is None and summary["parameters"]["cv"] == 0
    assert "roc.png" not in summary["figures"]
    assert "without cross-validation" in (tmp_path / "o" / "report.html").read_text()
    for command in ("train", "run"):
        code = main([command, *args[:-1], "1", "-o", tmp_path / "x"])
        assert code == 2
        assert "cv must be 0 (no cross-validation) or at least 2, got 1" in (
            capsys.readouterr().err
        )


def test_too_few_for_the_inner_selection_exits_2_before_work(
    tmp_path, monkeypatch, capsys
):
    import poimkit.svm.selection as selection

    monkeypatch.setattr(
        selection, "select_parameters", lambda *a, **k: pytest.fail("selected")
    )
    X, y = make_gattaca(n_pos=10, n_neg=10, length=16, mean=5, sd=1, random_state=0)
    pos, neg = tmp_path / "p.fa", tmp_path / "n.fa"
    write_fasta(pos, [f"p{i}" for i in range(10)], X[y == 1])
    write_fasta(neg, ["n0", "n1"], X[y == 0][:2])
    for command in ("train", "run"):
        args = [command, "--pos", pos, "--neg", neg, "--cv", "0", "--quiet"]
        assert main([*args, "-o", tmp_path / "o"]) == 2
        assert "inner 3-fold cross-validation needs more sequences per class" in (
            capsys.readouterr().err
        )
        assert not (tmp_path / "o").exists()


def test_positive_label_option(data, tmp_path, capsys):
    fasta = tmp_path / "all.fa"
    fasta.write_text((data / "p.fa").read_text() + (data / "n.fa").read_text())
    table = tmp_path / "labels.tsv"
    rows = [f"p{i}\tbound" for i in range(20)] + [f"n{i}\tunbound" for i in range(20)]
    table.write_text("\n".join(rows) + "\n")
    args = ["train", "--fasta", fasta, "--labels", table, "--no-grid", "--cv", "0"]
    assert main([*args, "-o", tmp_path / "m.npz"]) == 2
    assert "--positive-label" in capsys.readouterr().err
    code = main([*args, "--positive-label", "bound", "-o", tmp_path / "m.npz"])
    assert code == 0
    from poimkit import load_model

    assert load_model(tmp_path / "m.npz").classes_.tolist() == [0, 1]


def test_dropped_records_are_one_line(data, tmp_path, capsys):
    bad = tmp_path / "p.fa"
    bad.write_text((data / "p.fa").read_text() + ">x\nACGTNNACGTACGTAC\n")
    args = ["train", "--pos", bad, "--neg", data / "n.fa", "--drop-invalid"]
    assert main([*args, "--no-grid", "--cv", "0", "-o", tmp_path / "m.npz"]) == 0
    lines = [x for x in capsys.readouterr().err.splitlines() if "dropped " in x]
    assert lines == [
        f"poimkit: warning: {bad}: dropped 1 of 21 records with letters other "
        "than A, C, G, T/U: 'x'"
    ]


def test_kernel_solver_refused_at_once_when_too_large(
    data, tmp_path, monkeypatch, capsys
):
    import poimkit.run.options
    import poimkit.run.pipeline
    import poimkit.run.train

    monkeypatch.setattr(poimkit.run.options, "kernel_memory_limit", lambda: 1000.0)
    for module in (poimkit.run.pipeline, poimkit.run.train):
        monkeypatch.setattr(
            module, "train_model", lambda *a, **k: pytest.fail("trained anyway")
        )
    args = ["--pos", data / "p.fa", "--neg", data / "n.fa", "--solver", "kernel"]
    assert main(["run", *args, *FAST, "-o", tmp_path / "o"]) == 2
    assert "use --solver linear" in capsys.readouterr().err
    assert main(["train", *args, "-o", tmp_path / "m.npz"]) == 2
    assert "too many for the kernel solver" in capsys.readouterr().err
    assert not (tmp_path / "o").exists() and not (tmp_path / "m.npz").exists()


def test_default_solver_switches_to_linear_for_many_sequences(
    data, tmp_path, monkeypatch, capsys
):
    """Before, the kernel solver started on 50,000 sequences (13 GB, > 10 min)."""
    import poimkit.run.options as options

    monkeypatch.setattr(options, "KERNEL_MAX_SEQUENCES", 30)
    args = ["--pos", data / "p.fa", "--neg", data / "n.fa", "--cv", "2"]
    run = ["run", *args, "--max-order", "3", "--max-motifs", "0", "--quiet"]
    assert main([*run, "-o", tmp_path / "o"]) == 0
    notices = [x for x in capsys.readouterr().err.splitlines() if "linear" in x]
    assert notices == [
        "poimkit: warning: 40 sequences are too many for the kernel solver (more "
        "than 30): using the linear solver, degree 20 (choose with --solver, "
        "--degree)"
    ]
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["parameters"]["solver"] == "linear"
    # the default degree: the exact table of the present k-mers fits
    assert summary["parameters"]["chosen"]["degree"] == 20
    assert main(["train", *args, "--quiet", "-o", tmp_path / "m.npz"]) == 0
    from poimkit import WDLinearSVC, load_model

    assert isinstance(load_model(tmp_path / "m.npz"), WDLinearSVC)
    monkeypatch.setattr(options, "KERNEL_MAX_SEQUENCES", 100)
    assert main([*run, "-o", tmp_path / "k"]) == 0
    summary = json.loads((tmp_path / "k" / "summary.json").read_text())
    assert summary["parameters"]["solver"] == "kernel"


def test_help_every_option_explained_and_examples_whole():
    import argparse

    from poimkit.cli import build_parser

    parser = build_parser()
    commands = next(
        a for a in parser._actions if isinstance(a, argparse._SubParsersAction)
    ).choices
    for name, command in commands.items():
        for action in command._actions:
            if not isinstance(action, argparse._HelpAction):
                assert action.help, f"{name} {action.option_strings or action.dest}"
        text = command.format_help()
        assert "(default: None)" not in text
        for line in (command.epilog or "").splitlines():
            assert line in text  # one example per line, never split


def test_report_explains_pooled_auc_and_demo_inputs(data, tmp_path):
    from poimkit.run import RunOptions, run_pipeline

    summary = run_pipeline(
        tmp_path / "o",
        pos=str(data / "p.fa"),
        neg=str(data / "n.fa"),
        options=RunOptions(degree=4, shift=0, C=1.0, cv=2, max_order=2, max_motifs=0),
        progress=False,
        dataset="bundled example",
    )
    assert 0 <= summary["cv_auc_pooled"] <= 1
    assert summary["inputs"][0]["path"] == "bundled example: p.fa (temporary copy)"
    page = (tmp_path / "o" / "report.html").read_text()
    assert "over all probabilities pooled" in page and "class='hash'" in page


def test_no_progress_bar_codes_in_logs(data, tmp_path):
    """stderr to a file: plain lines only, no carriage returns of tqdm."""
    out = tmp_path / "o"
    result = subprocess.run(
        [sys.executable, "-m", "poimkit.cli", "run", "--pos", data / "p.fa"]
        + ["--neg", data / "n.fa", *FAST[:-1], "-o", out],
        capture_output=True,
        text=True,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )
    assert result.returncode == 0, result.stderr
    assert "\r" not in result.stderr and "\x1b[" not in result.stderr


@pytest.mark.parametrize(("pooled", "explained"), [(0.95, False), (0.645, True)])
def test_report_explains_a_large_pooled_auc_gap(tmp_path, pooled, explained):
    """Fold models whose intercepts disagree: the page says why the AUCs differ."""
    from poimkit.run.report import _quality

    (tmp_path / "roc.png").write_bytes(b"png")
    summary = {
        "cv_auc": 0.953,
        "cv_auc_pooled": pooled,
        "cv_auc_folds": [0.95, 0.956],
        "cv_accuracy_folds": [0.9, 0.91],
        "selection": None,
    }
    page = "".join(str(p) for p in _quality(summary, tmp_path))
    assert ("here by 0.31" in page) is explained
    assert ("differ slightly" in page) is not explained
