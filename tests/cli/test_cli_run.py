"""End-to-end tests of `poimkit run` / `poimkit demo` in subprocesses."""

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from poimkit.datasets import make_gattaca, write_gattaca_data
from poimkit.io import write_fasta

from ..cli_runs import strict_json

ROOT = Path(__file__).resolve().parents[2]
GATTACA = ROOT / "data" / "gattaca"
FAST = ["--degree", "6", "--cv", "2", "--max-order", "3", "--max-motifs", "0"]


def poimkit(*args, **kwargs):
    env = {**os.environ, "MPLBACKEND": "Agg"}
    return subprocess.run(
        [sys.executable, "-m", "poimkit.cli", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        **kwargs,
    )


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cli_run")
    X, y = make_gattaca(n_pos=30, n_neg=30, length=24, mean=8, sd=1, random_state=1)
    pos, neg = folder / "pos.fa", folder / "neg.fa"
    write_fasta(pos, [f"p{i}" for i in range(30)], X[y == 1])
    write_fasta(neg, [f"n{i}" for i in range(30)], X[y == 0])
    return pos, neg


def assert_input_error(result, *needles):
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("poimkit: error: "), lines
    for needle in needles:
        assert needle in lines[0]
    assert result.stdout == ""


def test_run_writes_the_folder_and_prints_the_auc(pair, tmp_path):
    pos, neg = pair
    out = tmp_path / "out"
    result = poimkit("run", "--pos", pos, "--neg", neg, *FAST, "-o", out, "--quiet")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # --quiet: no progress bars
    summary = strict_json(out / "summary.json")
    first = result.stdout.splitlines()[0].split("\t")
    assert first[0] == "cv_auc" and float(first[1]) == pytest.approx(
        summary["cv_auc"], abs=1e-4
    )
    assert (out / "report.html").is_file() and (out / "figures" / "roc.png").is_file()
    assert summary["parameters"]["degree"] == 6 and summary["motifs"] == []
    # shift and C were left open: chosen by the nested CV, degree kept
    chosen = summary["parameters"]["chosen"]
    assert summary["parameters"]["grid"] is True
    assert summary["selection"]["chosen"] == chosen and chosen["degree"] == 6
    assert result.stdout.splitlines()[1] == (
        f"model\tdegree 6\tshift {chosen['shift']}\tC {chosen['C']:g}"
    )


def test_progress_bars_on_stderr_without_quiet(pair, tmp_path):
    pos, neg = pair
    result = poimkit("run", "--pos", pos, "--neg", neg, *FAST, "-o", tmp_path / "o")
    assert result.returncode == 0
    # stderr is a pipe here: a plain line per step, no terminal control codes
    assert "poimkit: cross-validation" in result.stderr and "\r" not in result.stderr


def test_labels_form(pair, tmp_path):
    pos, neg = pair
    both = tmp_path / "all.fa"
    both.write_text(pos.read_text() + neg.read_text())
    labels = tmp_path / "labels.tsv"
    rows = [f"p{i}\t1" for i in range(30)] + [f"n{i}\t0" for i in range(30)]
    labels.write_text("\n".join(rows) + "\n")
    result = poimkit(
        "run",
        "--fasta",
        both,
        "--labels",
        labels,
        *FAST,
        "-o",
        tmp_path / "o",
        "--quiet",
    )
    assert result.returncode == 0, result.stderr
    summary = strict_json(tmp_path / "o" / "summary.json")
    assert summary["n_positive"] == summary["n_negative"] == 30


def test_missing_file(pair, tmp_path):
    pos, _ = pair
    missing = tmp_path / "nope.fa"
    result = poimkit("run", "--pos", pos, "--neg", missing, "-o", tmp_path / "o")
    assert_input_error(result, str(missing))
    assert not (tmp_path / "o").exists()


def test_empty_file(pair, tmp_path):
    pos, _ = pair
    empty = tmp_path / "empty.fa"
    empty.write_text("")
    result = poimkit("run", "--pos", pos, "--neg", empty, "-o", tmp_path / "o")
    assert_input_error(result, str(empty), "empty")


def test_wrong_alphabet_names_record_and_position(pair, tmp_path):
    pos, _ = pair
    bad = tmp_path / "bad.fa"
    bad.write_text(
        ">ok\n" + "A" * 24 + "\n>broken\n" + "ACGT" * 3 + "X" + "A" * 11 + "\n"
    )
    result = poimkit("run", "--pos", pos, "--neg", bad, "-o", tmp_path / "o")
    assert_input_error(result, str(bad), "'broken'", "position 13")


def test_unequal_lengths(pair, tmp_path):
    pos, _ = pair
    ragged = tmp_path / "ragged.fa"
    ragged.write_text(">a\n" + "A" * 24 + "\n>b\n" + "C" * 20 + "\n")
    result = poimkit(
        "run", "--pos", pos, "--neg", ragged, "--kernel", "wd", "-o", tmp_path / "o"
    )
    assert_input_error(result, str(ragged), "'b'", "--crop")


def test_one_class_only(pair, tmp_path):
    pos, _ = pair
    labels = tmp_path / "labels.tsv"
    labels.write_text("".join(f"p{i}\t1\n" for i in range(30)))
    result = poimkit("run", "--fasta", pos, "--labels", labels, "-o", tmp_path / "o")
    assert_input_error(result, "class")


def test_existing_output_needs_force(pair, tmp_path):
    pos, neg = pair
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("precious")
    result = poimkit("run", "--pos", pos, "--neg", neg, *FAST, "-o", out)
    assert_input_error(result, str(out), "--force")
    assert (out / "mine.txt").read_text() == "precious"
    # --force replaces only a folder poimkit made: never the user's files
    result = poimkit("run", "--pos", pos, "--neg", neg, *FAST, "-o", out, "--force")
    assert_input_error(result, str(out), "not made by poimkit")
    assert (out / "mine.txt").read_text() == "precious"
    fresh = tmp_path / "fresh"
    assert (
        poimkit("run", "--pos", pos, "--neg", neg, *FAST, "-o", fresh).returncode == 0
    )
    first = (fresh / "summary.json").read_text()
    result = poimkit("run", "--pos", pos, "--neg", neg, *FAST, "-o", fresh, "--force")
    assert result.returncode == 0, result.stderr
    assert (fresh / "summary.json").read_text() != first  # replaced (new runtimes)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_run_leaves_no_output(tmp_path, sig):
    out = tmp_path / "out"
    env = {**os.environ, "MPLBACKEND": "Agg"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "poimkit.cli",
            "run",
            "--pos",
            GATTACA / "positives.fa",
            "--neg",
            GATTACA / "negatives.fa",
            "-o",
            out,
            "--quiet",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # a job started in the background inherits SIGINT ignored (then Python
        # sets no KeyboardInterrupt handler); give the child the default back
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while not any(p.name.startswith(".out.partial-") for p in tmp_path.iterdir()):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.5)  # well inside the run (cross-validation takes seconds)
    process.send_signal(sig)
    _, stderr = process.communicate(timeout=120)
    expected = {
        signal.SIGINT: (130, "interrupted"),
        signal.SIGTERM: (143, "terminated"),
    }
    code, word = expected[sig]
    assert process.returncode == code, stderr
    assert word in stderr
    assert list(tmp_path.iterdir()) == []


def test_version_and_help_with_examples():
    result = poimkit("--version")
    assert result.returncode == 0 and result.stdout.startswith("poimkit ")
    for command in ("train", "score", "poim", "motifs", "run", "demo"):
        result = poimkit(command, "--help")
        assert result.returncode == 0
        assert "example" in result.stdout, command


def test_demo_data_is_the_bundled_data(tmp_path):
    for path in write_gattaca_data(tmp_path):
        bundled = GATTACA / path.name
        assert (
            hashlib.sha256(path.read_bytes()).digest()
            == hashlib.sha256(bundled.read_bytes()).digest()
        )
