"""Reliability, round 3 (issue 29): output locks, --max-order limits, corrupt
``.npz`` files and a numba cache keyed on the package source."""

import os
import subprocess
import sys
import threading

import pytest

from poimkit.errors import InputError

from .cli_runs import FAST, main

# --- item 3: two runs into the same new -o ------------------------------------


def lock_path(out):
    from poimkit.outdir import lock_path

    return lock_path(out)


def _dead_pid() -> int:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    return dead.pid


def test_second_writer_of_the_same_folder_is_refused(tmp_path):
    """Before: both blocks ran and the later one silently replaced the first."""
    from poimkit.outdir import staged_directory

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
    from poimkit.outdir import output_lock

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


# --- item 4: --max-order limits -----------------------------------------------


@pytest.fixture
def long_data(tmp_path):
    from poimkit.datasets import make_gattaca
    from poimkit.io import write_fasta

    folder = tmp_path / "long"
    folder.mkdir()
    X, y = make_gattaca(n_pos=20, n_neg=20, length=40, mean=5, sd=1, random_state=0)
    write_fasta(folder / "p.fa", [f"p{i}" for i in range(20)], X[y == 1])
    write_fasta(folder / "n.fa", [f"n{i}" for i in range(20)], X[y == 0])
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


# --- item 5: corrupt .npz files -----------------------------------------------


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
    from poimkit import Poim
    from poimkit.svm import load_model

    _, model, poim = saved
    _damage(model, how)
    _damage(poim, how)
    with pytest.raises(InputError, match="corrupt poimkit model file"):
        load_model(model)
    with pytest.raises(InputError, match="corrupt poimkit POIM file"):
        Poim.load(poim)


def test_not_an_npz_is_still_not_an_npz(tmp_path):
    from poimkit.svm import load_model

    path = tmp_path / "m.npz"
    path.write_text(">a\nACGT\n")
    with pytest.raises(InputError, match=r"not a poimkit model file \(\.npz\)"):
        load_model(path)


# --- item 10: numba's cache keyed on the package source -------------------------


def test_source_key_changes_with_any_source_file_and_the_version(tmp_path):
    from poimkit._config import source_key

    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "sub" / "helper.py").write_text("X = 1\n")
    before = source_key(tmp_path, "1.0")
    assert source_key(tmp_path, "1.0") == before
    assert source_key(tmp_path, "1.1") != before
    (tmp_path / "sub" / "helper.py").write_text("X = 2\n")  # a helper elsewhere
    changed = source_key(tmp_path, "1.0")
    assert changed != before
    (tmp_path / "sub" / "helper.py").write_text("X = 1\n")
    assert source_key(tmp_path, "1.0") == before  # content, not time stamps


def test_cache_roots_nest_under_a_user_cache_dir(tmp_path, monkeypatch):
    from numba.core import config

    from poimkit._config import PACKAGE, cache_roots, source_key

    key = source_key()
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    assert cache_roots() == [tmp_path / f"poimkit-{key}"]
    monkeypatch.setattr(config, "CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_roots() == [
        PACKAGE / "__pycache__" / f"numba-{key}",
        tmp_path / "poimkit" / f"numba-{key}",
    ]


def test_compiled_kernels_are_cached_under_the_keyed_folder(tmp_path):
    """Before: the index files were keyed on their own source file only."""
    import poimkit
    from poimkit._config import source_key

    code = (
        "import numpy as np\n"
        "from poimkit.kernels import wd_kernel\n"
        "X = np.zeros((2, 6), dtype=np.uint8)\n"
        "wd_kernel(X, X, degree=2)\n"
    )
    cache = tmp_path / "cache"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    root = os.path.dirname(os.path.dirname(poimkit.__file__))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    index = list(cache.rglob("*.nbi"))
    assert index
    keyed = cache / f"poimkit-{source_key()}"
    assert all(keyed in path.parents for path in index), index
