"""The one memory estimate of the exact engine: run's pre-check and compute_poim."""

import numpy as np
import pytest

from poimkit import WDKernelSVC
from poimkit.datasets import make_gattaca
from poimkit.errors import InputError
from poimkit.poim import compute_poim
from poimkit.poim.engine import plan_shifts
from poimkit.poim.exact import estimate_bytes
from poimkit.run.data import LabeledData
from poimkit.run.options import RunOptions
from poimkit.run.plan import make_plan
from poimkit.run.poim_step import check_poim_memory, make_background


@pytest.mark.parametrize(
    ("background", "markov_order", "method"),
    [("uniform", 0, "convolve"), ("fit", 2, "burn-in")],
)
def test_precheck_estimate_is_the_one_compute_poim_checks(
    background, markov_order, method
):
    X, y = make_gattaca(
        n_pos=60, n_neg=60, length=30, motif="GATTA", mean=10, sd=2, random_state=3
    )
    data = LabeledData([str(i) for i in range(y.size)], X, y, [], 0)
    options = RunOptions(
        kernel="wd",
        degree=1,
        shift=4,
        C=1.0,
        grid=False,
        cv=0,
        max_order=3,
        background=background,
        markov_order=markov_order,
    )
    candidates = make_plan(data, options).candidates()
    need = check_poim_memory(data, options, candidates)
    bg = make_background(data, options)
    assert plan_shifts(bg, 4).method == method
    # the old pre-check counted the orders only
    assert need > estimate_bytes(30, 3, markov_order)
    model = WDKernelSVC(degree=1, shift=4, C=1.0).fit(X, y)
    # compute_poim refuses one byte less than the pre-check's figure, not it
    with pytest.raises(InputError, match="GiB"):
        compute_poim(model, 3, bg, memory_limit=need - 1)
    poim = compute_poim(model, 3, bg, memory_limit=need)
    assert np.isfinite(poim.q(3)).all()
    with pytest.raises(InputError, match="GiB"):
        check_poim_memory(
            data,
            RunOptions(**{**vars(options), "memory_limit_gb": (need - 1) / 1024**3}),
            candidates,
        )
