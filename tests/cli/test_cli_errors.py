"""CLI error paths of the second trial (issue 15): refused writes, late checks, help.

Disk full is tried on a real 64 KiB tmpfs where the machine allows mounting
one (root, as on CI), and always by an OS error without a file name at the
write itself (what a full disk raises).
"""

import errno
import os
import subprocess
import uuid

import pytest

from ..cli_runs import FAST, main


@pytest.fixture
def full_disk(tmp_path):
    """A folder on a 64 KiB file system, or a skip where mounting is not allowed."""
    folder = tmp_path / f"full-{uuid.uuid4().hex[:6]}"
    folder.mkdir()
    mount = ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)]
    if os.geteuid() != 0 or subprocess.run(mount, capture_output=True).returncode:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def _no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")  # no file name


def test_full_disk_names_the_file_and_leaves_nothing(data, full_disk, capsys):
    filler = os.open(full_disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:  # fill it to the last block
        while os.write(filler, b"x" * 1024):
            pass
    except OSError:
        pass
    finally:
        os.close(filler)
    args = ["--pos", data / "p.fa", "--neg", data / "n.fa", "--no-grid", "--cv", "0"]
    assert main(["train", *args, "--degree", "8", "-o", full_disk / "m.npz"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == (
        f"poimkit: error: {full_disk / 'm.npz'}: cannot write: No space left on device"
    )
    assert main(["run", *args, "--max-order", "2", "-o", full_disk / "out"]) == 2
    err = capsys.readouterr().err
    assert f"{full_disk / 'out'}: cannot write: No space left on device" in err
    assert sorted(p.name for p in full_disk.iterdir()) == ["filler"]


def test_write_refused_without_a_file_name_names_the_output(
    data, tmp_path, monkeypatch, capsys
):
    """Before: ``poimkit: error: No space left on device``, no path."""
    import numpy as np

    args = ["--pos", data / "p.fa", "--neg", data / "n.fa", "--no-grid", "--cv", "0"]
    monkeypatch.setattr(np.lib.format, "write_array", _no_space)  # write_npz's
    assert main(["train", *args, "-o", tmp_path / "m.npz"]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'm.npz'}: cannot write: No space left on device" in err
    assert "internal error" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["data"]


def test_run_folder_refused_at_the_end_names_it_and_leaves_no_staging(
    data, tmp_path, monkeypatch, capsys
):
    """Before: the final rename's error left ``.OUT.partial-*`` and ``.OUT.old-*``."""
    args = ["run", "--pos", data / "p.fa", "--neg", data / "n.fa", *FAST]
    out = tmp_path / "out"
    assert main([*args, "-o", out]) == 0
    before = sorted(p.name for p in out.iterdir())
    real_replace = os.replace

    def busy(src, dst):
        if os.path.dirname(src) == str(tmp_path) and ".out.partial-" in str(src):
            raise OSError(errno.EBUSY, "Device or resource busy", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", busy)
    assert main([*args, "-o", out, "--force"]) == 2
    assert f"{out}: cannot write: Device or resource busy" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "out"]
    assert sorted(p.name for p in out.iterdir()) == before  # the old results stay


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--seed", "-1"], "seed must be"),
        (["--solver", "linear", "--mismatches", "1"], "mismatches: option(s) of the"),
        (["--solver", "linear", "--reverse-complement"], "reverse_complement"),
    ],
)
@pytest.mark.parametrize("command", ["train", "run"])
def test_bad_parameters_exit_2_before_any_work(
    data, tmp_path, monkeypatch, capsys, command, extra, words
):
    """Before: exit 1 with a ValueError or TypeError, after cross-validation."""
    import poimkit.io

    def no_reading(*args, **kwargs):
        raise AssertionError("read the input before checking the parameters")

    monkeypatch.setattr(poimkit.io, "read_labeled", no_reading)
    args = [command, "--pos", data / "p.fa", "--neg", data / "n.fa", *extra]
    assert main([*args, "-o", tmp_path / "o"]) == 2
    err = capsys.readouterr().err
    assert words in err and "internal error" not in err


def test_linear_parameters_checked_before_reading(data, tmp_path, monkeypatch, capsys):
    import poimkit.io

    monkeypatch.setattr(poimkit.io, "read_labeled", _no_space)  # never reached
    args = ["train", "--pos", data / "p.fa", "--neg", data / "n.fa"]
    args += ["--solver", "linear", "--chunk-size", "0", "-o", tmp_path / "m.npz"]
    assert main(args) == 2
    assert "chunk_size must be" in capsys.readouterr().err


def test_poim_top_must_not_be_negative(data, tmp_path, capsys):
    model = tmp_path / "m.npz"
    args = ["--pos", data / "p.fa", "--neg", data / "n.fa", "--no-grid", "--cv", "0"]
    assert main(["train", *args, "--degree", "3", "-o", model, "--quiet"]) == 0
    assert main(["poim", model, "--top", "-1", "-o", tmp_path / "p.npz"]) == 2
    assert "--top must be" in capsys.readouterr().err
    assert not (tmp_path / "p.npz").exists()


def test_run_reports_dropped_records_in_one_line(data, tmp_path, capsys):
    """Before: ``run`` counted the dropped records but never said which."""
    bad = tmp_path / "p.fa"
    bad.write_text((data / "p.fa").read_text() + ">x\nACGTNNACGTACGTAC\n")
    args = ["run", "--pos", bad, "--neg", data / "n.fa", "--drop-invalid", *FAST]
    assert main([*args, "-o", tmp_path / "o"]) == 0
    captured = capsys.readouterr()
    lines = [x for x in captured.err.splitlines() if "dropped " in x]
    assert lines == [
        f"poimkit: warning: {bad}: dropped 1 of 21 records with letters other "
        "than A, C, G, T/U: 'x'"
    ]
    assert "# 1 records dropped" in captured.out


@pytest.mark.parametrize("command", ["run", "train", "poim", "motifs"])
def test_help_never_splits_an_option_name(command, monkeypatch):
    """Before: ``--no-`` / ``grid`` at 36 of the widths from 50 to 200."""
    import argparse

    from poimkit.cli.parser import build_parser

    sub = next(
        a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)
    )
    for width in range(50, 201):
        monkeypatch.setenv("COLUMNS", str(width))
        lines = sub.choices[command].format_help().splitlines()
        for line, following in zip(lines, lines[1:], strict=False):
            if line.rstrip().endswith("-") and following.strip()[:1].isalpha():
                pytest.fail(f"width {width}: {line!r} / {following!r}")


def test_force_names_what_a_foreign_folder_holds(data, tmp_path, capsys):
    other = tmp_path / "notes"
    other.mkdir()
    (other / "mine.txt").write_text("keep me")
    args = ["run", "--pos", data / "p.fa", "--neg", data / "n.fa", *FAST]
    assert main([*args, "-o", other, "--force"]) == 2
    assert "it holds mine.txt" in capsys.readouterr().err
    assert (other / "mine.txt").read_text() == "keep me"


def test_logos_folder_not_writable_is_named(data, tmp_path, monkeypatch, capsys):
    logos = tmp_path / "logos"
    logos.mkdir()
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode: False if p == logos else real_access(p, mode)
    )
    poim = tmp_path / "p.npz"
    poim.write_bytes(b"")  # never read: the check comes first
    assert main(["motifs", poim, "-o", tmp_path / "m.meme", "--logos", logos]) == 2
    err = capsys.readouterr().err
    assert f"cannot write logos into {logos}: it is not writable" in err
    assert not (tmp_path / "m.meme").exists()


def test_dask_missing_exits_2_before_reading(data, tmp_path, monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name in ("dask", "distributed") else real(name, *a),
    )
    args = ["train", "--pos", data / "p.fa", "--neg", data / "n.fa"]
    args += ["--solver", "linear", "--dask", "local", "-o", tmp_path / "m.npz"]
    assert main(args) == 2
    assert 'pip install "dask[distributed]"' in capsys.readouterr().err


def test_not_better_than_chance_says_where_the_interval_lies():
    from poimkit.run.options import RunOptions
    from poimkit.run.results import CVResult
    from poimkit.run.summary import motif_note

    cv = CVResult(figures={"cv_auc": 0.0, "cv_auc_interval": [0.0, 0.0]})
    assert "lies below 0.5" in motif_note(cv, RunOptions(), [])
    cv = CVResult(figures={"cv_auc": 0.55, "cv_auc_interval": [0.4, 0.7]})
    assert "includes 0.5" in motif_note(cv, RunOptions(), [])


def test_report_shows_the_parameters_the_model_used(data, tmp_path):
    args = ["run", "--pos", data / "p.fa", "--neg", data / "n.fa", *FAST]
    assert main([*args, "--cv", "0", "-o", tmp_path / "o"]) == 0
    page = (tmp_path / "o" / "report.html").read_text()
    assert "<td>shift</td><td>0 (default)</td>" in page
    assert "<td>C</td><td>1 (default)</td>" in page
