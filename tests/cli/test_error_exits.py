"""Refusals exit 2 with one line naming the problem, before any work.

Never an internal error (exit 1) and never a half-done output: wrong or
corrupt input files, too few sequences, options out of range (``--max-order``
past the k-mer limit or the length, ``--cv 1``), a solver or a POIM too large
for the memory.
"""

import pytest

from poimkit.datasets import make_gattaca
from poimkit.errors import InputError
from poimkit.io import write_fasta

from ..cli_runs import FAST, main, strict_json

# --- inputs and outputs checked first -----------------------------------------


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


def test_poim_memory_checked_before_training(data, tmp_path, capsys, monkeypatch):
    import poimkit.run.pipeline as pipeline

    def no_training(*args, **kwargs):
        raise AssertionError("trained before the memory check")

    monkeypatch.setattr(pipeline, "train_model", no_training)
    args = ["run", "--pos", data / "p.fa", "--neg", data / "n.fa", *FAST]
    assert main([*args, "--max-order", "14", "-o", tmp_path / "o"]) == 2
    assert "over the limit" in capsys.readouterr().err
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


# --- too few sequences, cross-validation --------------------------------------


def test_train_with_too_few_of_a_class_exits_2(tmp_path, capsys):
    X, y = make_gattaca(n_pos=10, n_neg=10, length=16, mean=5, sd=1, random_state=0)
    pos, neg = tmp_path / "p.fa", tmp_path / "n.fa"
    write_fasta(pos, [f"p{i}" for i in range(10)], X[y == 1])
    write_fasta(neg, ["n0", "n1"], X[y == 0][:2])
    assert main(["train", "--pos", pos, "--neg", neg, "-o", tmp_path / "m.npz"]) == 2
    captured = capsys.readouterr()
    assert "nan" not in captured.out and "at least 5" in captured.err
    assert not (tmp_path / "m.npz").exists()


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


def test_cv_0_means_no_cross_validation_in_train_and_run(data, tmp_path, capsys):
    args = ["--pos", data / "p.fa", "--neg", data / "n.fa", "--cv", "0"]
    assert main(["train", *args, "--no-grid", "-o", tmp_path / "m.npz"]) == 0
    assert "cv_auc" not in capsys.readouterr().out
    run = ["run", *args, "--no-grid", "--degree", "4", "--max-order", "2"]
    assert main([*run, "--quiet", "-o", tmp_path / "o"]) == 0
    out = capsys.readouterr().out
    assert "no cross-validation (--cv 0)" in out and "nan" not in out
    summary = strict_json(tmp_path / "o" / "summary.json")
    assert summary["cv_auc"] is None and summary["parameters"]["cv"] == 0
    assert "roc.png" not in summary["figures"]
    assert "without cross-validation" in (tmp_path / "o" / "report.html").read_text()
    for command in ("train", "run"):
        code = main([command, *args[:-1], "1", "-o", tmp_path / "x"])
        assert code == 2
        assert "cv must be 0 (no cross-validation) or at least 2, got 1" in (
            capsys.readouterr().err
        )


# --- the kernel solver and the memory -----------------------------------------


def test_kernel_solver_refused_at_once_when_too_large(
    data, tmp_path, monkeypatch, capsys
):
    import poimkit.run.kernel_memory
    import poimkit.run.pipeline
    import poimkit.run.registry
    import poimkit.run.train

    for module in (poimkit.run.kernel_memory, poimkit.run.registry):
        monkeypatch.setattr(module, "kernel_memory_limit", lambda: 1000.0)
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
    import poimkit.run.registry as registry

    monkeypatch.setattr(registry, "KERNEL_MAX_SEQUENCES", 30)
    args = ["--pos", data / "p.fa", "--neg", data / "n.fa", "--cv", "2"]
    run = ["run", *args, "--max-order", "3", "--max-motifs", "0", "--quiet"]
    assert main([*run, "--kernel", "wd", "-o", tmp_path / "o"]) == 0
    notices = [x for x in capsys.readouterr().err.splitlines() if "linear" in x]
    assert notices == [
        "poimkit: warning: 40 sequences are too many for the kernel solver (more "
        "than 30): using the linear solver, degree 20 (choose with --solver, "
        "--degree)"
    ]
    summary = strict_json(tmp_path / "o" / "summary.json")
    assert summary["parameters"]["solver"] == "linear"
    # the default degree: the exact table of the present k-mers fits
    assert summary["parameters"]["chosen"]["degree"] == 20
    wd = ["--kernel", "wd", "--quiet"]
    assert main(["train", *args, *wd, "-o", tmp_path / "m.npz"]) == 0
    from poimkit import GkmSVC, WDLinearSVC, load_model

    assert isinstance(load_model(tmp_path / "m.npz"), WDLinearSVC)
    capsys.readouterr()
    # the default family there: the gapped k-mer model, linear in the records
    assert main([*run, "-o", tmp_path / "g"]) == 0
    notices = [x for x in capsys.readouterr().err.splitlines() if "linear" in x]
    assert notices == [
        "poimkit: warning: 40 records are too many for the WD kernel solver (more "
        "than 30): using the gapped k-mer model (GkmSVC, linear in the records; "
        "--kernel wd for the WD kernel's linear solver)"
    ]
    assert strict_json(tmp_path / "g" / "summary.json")["family"] == "gkm"
    assert main(["train", *args, "--quiet", "-o", tmp_path / "g.npz"]) == 0
    assert isinstance(load_model(tmp_path / "g.npz"), GkmSVC)
    monkeypatch.setattr(registry, "KERNEL_MAX_SEQUENCES", 100)
    assert main([*run, "-o", tmp_path / "k"]) == 0
    summary = strict_json(tmp_path / "k" / "summary.json")
    assert summary["parameters"]["solver"] == "kernel"


# --- --max-order limits -------------------------------------------------------


@pytest.fixture
def long_data(tmp_path):
    from ..cli_runs import write_gattaca

    folder = tmp_path / "long"
    folder.mkdir()
    write_gattaca(folder, 20, 40, mean=5, sd=1)
    return folder


@pytest.mark.parametrize("order", ["32", "40", "100"])
def test_max_order_past_the_kmer_limit_exits_2(long_data, tmp_path, capsys, order):
    """Before: ``internal error: OverflowError`` (exit 1)."""
    pos, neg = long_data / "p.fa", long_data / "n.fa"
    args = ["--pos", pos, "--neg", neg, "--no-grid", "--degree", "4", "--cv", "0"]
    run = ["run", *args, "--max-motifs", "0", "--quiet", "--max-order", order]
    assert main([*run, "-o", tmp_path / "out"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "31" in err[0] and "internal error" not in err[0]
    assert not (tmp_path / "out").exists()
    model = tmp_path / "m.npz"
    assert main(["train", *args, "--quiet", "-o", model]) == 0
    capsys.readouterr()
    poim = ["poim", model, "--max-order", order, "-o", tmp_path / "q.npz", "--quiet"]
    assert main(poim) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "1..31" in err[0] and "internal error" not in err[0]


def test_run_max_order_past_the_length_exits_2_naming_the_range(data, tmp_path, capsys):
    """Before: clamped to the length, then a 138.7 GiB memory refusal."""
    args = ["run", "--pos", data / "p.fa", "--neg", data / "n.fa", *FAST]
    assert main([*args, "--max-order", "17", "-o", tmp_path / "out"]) == 2
    err = capsys.readouterr().err
    assert "1..16" in err and "length" in err and "GiB" not in err


def test_compute_poim_refuses_orders_past_31_for_every_model_kind():
    import numpy as np

    from poimkit import compute_poim
    from poimkit.svm import GkmSVC

    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, (30, 40)).astype(np.uint8)
    y = np.repeat([0, 1], 15)
    model = GkmSVC(l=4, k=3).fit(X, y)
    with pytest.raises(InputError, match=r"1\.\.31"):
        compute_poim(model, 32)


# --- corrupt .npz files -------------------------------------------------------


def _damage(path, how):
    raw = bytearray(path.read_bytes())
    if how == "truncated":
        path.write_bytes(bytes(raw[: len(raw) // 2]))
        return
    middle = len(raw) // 2
    for i in range(middle, min(middle + 16, len(raw))):
        raw[i] ^= 0xFF
    path.write_bytes(bytes(raw))


@pytest.fixture
def saved(data, tmp_path):
    """A trained model and its POIM, written by the CLI."""
    model, poim = tmp_path / "m.npz", tmp_path / "p.npz"
    args = ["--pos", data / "p.fa", "--neg", data / "n.fa", "--no-grid", "--cv", "0"]
    assert main(["train", *args, "--degree", "4", "--quiet", "-o", model]) == 0
    assert main(["poim", model, "--max-order", "3", "-o", poim, "--quiet"]) == 0
    return data, model, poim


@pytest.mark.parametrize("how", ["flipped", "truncated"])
def test_corrupt_files_exit_2_with_one_line(saved, tmp_path, capsys, how):
    """Before: ``internal error: Error -3 while decompressing data`` (exit 1)."""
    data, model, poim = saved
    _damage(model, how)
    _damage(poim, how)
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("a\tACGATTACAGTACGAT\tACGATCACAGTACGAT\n")
    commands = {
        model: [
            ["score", model, data / "p.fa", "-o", tmp_path / "s.tsv"],
            ["poim", model, "--max-order", "2", "-o", tmp_path / "q.npz"],
            ["variants", model, "--pairs", pairs, "-o", tmp_path / "e.tsv"],
        ],
        poim: [["motifs", poim, "-o", tmp_path / "m.meme"]],
    }
    capsys.readouterr()
    for path, runs in commands.items():
        for argv in runs:
            assert main([*argv, "--quiet"]) == 2, argv
            err = capsys.readouterr().err.strip().splitlines()
            assert len(err) == 1, (argv, err)
            assert err[0].startswith(f"poimkit: error: {path}: corrupt poimkit"), err
            assert "internal error" not in err[0]


@pytest.mark.parametrize("how", ["flipped", "truncated"])
def test_corrupt_files_from_python(saved, how):
    from poimkit import Poim, load_model

    _, model, poim = saved
    _damage(model, how)
    _damage(poim, how)
    with pytest.raises(InputError, match="corrupt poimkit model file"):
        load_model(model)
    with pytest.raises(InputError, match="corrupt poimkit POIM file"):
        Poim.load(poim)


def test_not_an_npz_is_still_not_an_npz(tmp_path):
    from poimkit import load_model

    path = tmp_path / "m.npz"
    path.write_text(">a\nACGT\n")
    with pytest.raises(InputError, match=r"not a poimkit model file \(\.npz\)"):
        load_model(path)


# --- help ---------------------------------------------------------------------


def test_help_every_option_explained_and_examples_whole():
    import argparse

    from poimkit.cli.parser import build_parser

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
