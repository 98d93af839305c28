"""Long steps say how far they are: inner fits, outer folds, motif comparison."""

import logging
import os
import subprocess
import sys

import numpy as np

from poimkit import WDKernelSVC
from poimkit.cli import main
from poimkit.datasets import make_gattaca
from poimkit.motifs.formats import write_motifs
from poimkit.run import RunOptions
from poimkit.run.crossval import cross_validate
from poimkit.run.data import LabeledData
from poimkit.run.plan import make_plan
from poimkit.svm.selection import Grid, select_nested

from ..cli_runs import FAST


def _data():
    X, y = make_gattaca(n_pos=40, n_neg=40, length=20, mean=8, sd=1, random_state=1)
    return LabeledData([f"s{i}" for i in range(y.size)], X, y, [], 0)


def test_selection_bar_counts_every_inner_fit(capsys):
    data = _data()
    grid = Grid({"degree": (3, 5), "shift": (0,)}, C=(0.1, 1.0))
    rows = [np.arange(data.y.size)]
    select_nested(WDKernelSVC(), data.X, data.y, grid, rows, progress="inner CV wd")
    err = capsys.readouterr().err
    # 2 kernel settings x 3 inner folds, C values fitted along each
    assert "inner CV wd" in err and "0/6 " in err


def test_cross_validation_lines_for_logs(capsys, caplog):
    options = RunOptions(kernel="wd", degree=3, shift=0, grid=True, cv=3, max_order=2)
    data = _data()
    with caplog.at_level(logging.INFO, logger="poimkit"):
        cross_validate(data, make_plan(data, options), progress="lines")
    said = [record.getMessage() for record in caplog.records]
    assert said[0].startswith("choosing the parameters by inner CV")
    folds = [line for line in said if "cross-validation: fitting fold" in line]
    assert folds == [f"cross-validation: fitting fold {i} of 3" for i in (1, 2, 3)]
    assert "\r" not in capsys.readouterr().err  # no bar codes in a log


def test_motif_comparison_says_what_it_reads(tmp_path, capsys):
    from poimkit.motifs.motif import Motif

    pwm = np.full((6, 4), 0.1)
    pwm[np.arange(6), [2, 0, 3, 3, 0, 1]] = 0.7
    found = tmp_path / "found.meme"
    known = tmp_path / "known.meme"
    write_motifs(found, [Motif(name="m1", pwm=pwm, position=np.nan, spread=np.nan)])
    write_motifs(
        known, [Motif(name="k1", pwm=pwm[::-1], position=np.nan, spread=np.nan)]
    )
    assert main(["motifs", str(found), "--compare", str(known)]) == 0
    captured = capsys.readouterr()
    assert f"reading the known motifs of {known}" in captured.err
    assert "m1\tk1" in captured.out


def test_regression_cv_shows_a_bar_over_the_folds(capsys):
    from poimkit import WDKernelSVR
    from poimkit.run.regression import cv_regression

    data = _data()
    target = data.y + np.random.default_rng(0).normal(0, 0.3, data.y.size)
    cv_regression(WDKernelSVR(degree=3), data.X, target, 3, progress=True)
    err = capsys.readouterr().err
    assert "cross-validation" in err and "/3 " in err


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
