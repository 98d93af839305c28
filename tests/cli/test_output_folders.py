"""Output folders and files: a failing or interrupted command never loses data.

Folders given to ``-o`` are staged and locked: poimkit replaces only folders it
made, refuses a second writer of the same folder, leaves nothing partial behind
on errors and signals, and writes a command's outputs together or not at all.
"""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from poimkit.datasets import make_gattaca
from poimkit.errors import InputError
from poimkit.io import write_fasta
from poimkit.io.outdir import (
    LAYOUT,
    OWNER_FILE,
    RUN_FORMAT,
    check_output_folder,
    lock_path,
    remove_stale_staging,
    staged_directory,
)

from ..cli_runs import FAST, main, strict_json

# --- staged folders: only poimkit's own are replaced --------------------------


def test_force_replaces_a_folder_of_every_output_the_layout_names(tmp_path):
    """Every output of run, explain and interactions is the layout's: --force takes it.

    ``interactions.tsv`` and ``interactions.png`` were missing from the list of
    run files, so ``poimkit interactions --force`` refused its own folder.
    """
    import json

    out = tmp_path / "out"
    out.mkdir()
    for name in LAYOUT.names():
        (out / name).write_text("")
    (out / LAYOUT.summary).write_text(json.dumps({"format": RUN_FORMAT}))
    assert check_output_folder(out, force=True) == out.resolve()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match="notes.txt"):
        check_output_folder(out, force=True)


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
    assert strict_json(out / "summary.json")["format"]


def test_current_folder_and_its_parents_are_refused(data, monkeypatch, capsys):
    monkeypatch.chdir(data)
    args = ["run", "--pos", "p.fa", "--neg", "n.fa", *FAST, "--force"]
    for out in (".", ".."):
        assert main([*args, "-o", out]) == 2
        assert "current folder or one of its parents" in capsys.readouterr().err
    assert sorted(p.name for p in data.iterdir()) == ["n.fa", "p.fa"]
    assert not [p for p in data.parent.iterdir() if p.name.startswith("..")]


def test_stale_staging_folders_are_removed(tmp_path, caplog):
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
    assert "left by an interrupted run" in caplog.text
    assert not stale.exists() and live.exists() and foreign.exists()
    assert sorted(p.name for p in out.iterdir()) == ["a.txt"]
    assert remove_stale_staging(out) == []


def test_check_output_folder_rules(tmp_path):
    from poimkit.io.outdir import check_output_folder

    with pytest.raises(InputError, match="does not exist"):
        check_output_folder(tmp_path / "a" / "b")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert check_output_folder(empty, force=True) == empty.resolve()


# --- outputs: writable, written together or not at all ------------------------


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

    import poimkit.plot.logos

    meme, logos = tmp_path / "m.meme", tmp_path / "logos"
    motifs = ["motifs", poim, "--pos", data / "p.fa", "--neg", data / "n.fa"]
    with monkeypatch.context() as patch:
        patch.setattr(poimkit.plot.logos, "plot_logo", disk_full)
        code = main(
            [*motifs, "-o", meme, "--sites", tmp_path / "s.tsv", "--logos", logos]
        )
    assert code == 2, capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "m.npz", "p.npz"]
    assert main([*motifs, "-o", meme, "--logos", logos]) == 0
    assert meme.exists() and logos.is_dir()


# --- locks: two runs into the same new -o -------------------------------------


def _dead_pid() -> int:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    return dead.pid


def test_second_writer_of_the_same_folder_is_refused(tmp_path):
    """Before: both blocks ran and the later one silently replaced the first."""
    from poimkit.io.outdir import staged_directory

    out = tmp_path / "out"
    inside, release = threading.Event(), threading.Event()
    errors = []

    def first():
        try:
            with staged_directory(out) as staged:
                (staged / "who.txt").write_text("first")
                inside.set()
                release.wait(30)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
            inside.set()

    thread = threading.Thread(target=first)
    thread.start()
    assert inside.wait(30)
    try:
        with pytest.raises(InputError, match="another poimkit run"):
            with staged_directory(out) as staged:
                (staged / "who.txt").write_text("second")
    finally:
        release.set()
        thread.join()
    assert not errors
    assert (out / "who.txt").read_text() == "first"
    assert not lock_path(out).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_run_refused_at_once_while_another_writes_the_folder(data, tmp_path, capsys):
    out = tmp_path / "out"
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        lock_path(out).write_text(str(holder.pid))
        args = ["run", "--pos", data / "p.fa", "--neg", data / "n.fa", *FAST]
        assert main([*args, "-o", out]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "another poimkit run" in err[0]
        assert f"process {holder.pid}" in err[0]
        assert not out.exists() and lock_path(out).exists()  # not ours to remove
    finally:
        holder.kill()
        holder.wait()
    # the holder is gone: its lock is stale and taken over
    assert main([*args, "-o", out]) == 0
    assert (out / "summary.json").exists() and not lock_path(out).exists()


def test_stale_lock_is_taken_over_and_released(tmp_path):
    from poimkit.io.outdir import output_lock

    out = tmp_path / "out"
    lock_path(out).write_text(str(_dead_pid()))
    with output_lock(out):
        assert lock_path(out).read_text() == str(os.getpid())
        with output_lock(out):  # the same thread again: re-entrant
            pass
        assert lock_path(out).exists()
    assert not lock_path(out).exists()


def test_two_processes_into_the_same_new_folder(data, tmp_path):
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "poimkit.cli", "run", "--pos", str(data / "p.fa")]
    argv += ["--neg", str(data / "n.fa"), *FAST, "-o", str(out)]
    runs = [subprocess.Popen(argv, stderr=subprocess.PIPE, text=True) for _ in "ab"]
    codes = sorted(run.wait() for run in runs)
    errs = [run.stderr.read() for run in runs]
    assert codes == [0, 2], errs
    assert any(
        "another poimkit run" in e or "exists; choose another -o" in e for e in errs
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "out"]


# --- signals: nothing partial left behind -------------------------------------


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
import poimkit.cli.train as train
from poimkit.cli import main
from poimkit.io.outdir import staged_directory

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

train.run_train = stuck  # the train subcommand, looked up when it runs
sys.exit(main())
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
