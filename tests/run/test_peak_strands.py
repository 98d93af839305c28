"""Windows of unstranded peaks have no orientation: models read both strands."""

import numpy as np
import pytest

from poimkit.run.data import LabeledData
from poimkit.run.options import RunOptions
from poimkit.run.plan import make_plan


def _data(stranded: bool | None) -> LabeledData:
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, size=(40, 30)).astype(np.uint8)
    y = np.r_[np.ones(20), np.zeros(20)].astype(int)
    ids = [f"chr{i % 4 + 1}:{100 * i}-{100 * i + 30}" for i in range(40)]
    inputs = [{"role": "pos", "path": "pos.fa"}]
    if stranded is not None:
        inputs = [{"role": "peaks", "path": "peaks.bed", "stranded": stranded}]
    return LabeledData(ids, X, y, inputs, 0)


@pytest.mark.parametrize("kernel", ["wd", "auto"])
def test_unstranded_peaks_read_both_strands_by_default(kernel):
    plan = make_plan(_data(stranded=False), RunOptions(kernel=kernel), check=False)
    assert plan.options.reverse_complement is True
    for _, model, grid in plan.candidates():
        if grid is not None:
            assert grid.kernel["reverse_complement"] == (True,)
        assert model.get_params()["reverse_complement"] is True


@pytest.mark.parametrize("stranded", [True, None])
def test_stranded_peaks_and_fasta_keep_one_strand_for_wd(stranded):
    plan = make_plan(_data(stranded), RunOptions(kernel="wd"), check=False)
    assert plan.options.reverse_complement is None
    ((_, model, grid),) = plan.candidates()
    assert model.get_params()["reverse_complement"] is False
    assert "reverse_complement" not in grid.kernel


def test_a_given_strand_setting_is_kept():
    options = RunOptions(kernel="wd", reverse_complement=False)
    plan = make_plan(_data(stranded=False), options, check=False)
    assert plan.options.reverse_complement is False


def test_the_wd_linear_solver_keeps_its_one_strand():
    options = RunOptions(kernel="wd", solver="linear")
    plan = make_plan(_data(stranded=False), options, check=False)
    assert plan.options.reverse_complement is None
