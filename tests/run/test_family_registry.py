"""The family registry (`poimkit.run.registry`): a new family is one class.

The worked example of docs/contributing.md ("Adding a model family"): the
k-mer spectrum kernel, LS-GKM's gapped k-mer model without gaps (``k = l``),
registered as a family of its own and run end to end by the command line
with nothing else changed.
"""

import json

import numpy as np
import pytest

from poimkit.errors import InputError
from poimkit.run.options import RunOptions, search_families
from poimkit.run.registry import (
    Family,
    family,
    family_names,
    family_of,
    family_of_model,
    family_of_parameters,
    register,
    searched_families,
    unregister,
)

from ..cli_runs import main, write_gattaca


class SpectrumFamily(Family):
    """Every 5-mer counted anywhere: `GkmSVC` with ``k = l``."""

    name = "spectrum"
    title = "the position-free 5-mer spectrum kernel"
    short = "spectrum"
    classifier = "poimkit.svm.gkm:GkmSVC"
    regressor = "poimkit.svm.gkm:GkmSVR"
    defaults = {"l": 5, "k": 5, "reverse_complement": False, "C": 1.0}
    position_free = True
    layout = "rows"
    searched = False  # trained when asked for (--kernel spectrum)


@pytest.fixture
def spectrum():
    """The spectrum family, registered for one test."""
    yield register(SpectrumFamily())
    unregister("spectrum")


def test_builtin_families_answer_for_their_models():
    from poimkit import GkmSVC, GkmSVR, WDKernelSVC, WDLinearSVC

    assert family_names()[:3] == ("wd", "gkm", "cnn")
    assert searched_families() == ("wd", "gkm")
    for model, name in [
        (GkmSVC(), "gkm"),
        (GkmSVR(), "gkm"),
        (WDKernelSVC(), "wd"),
        (WDLinearSVC(), "wd"),
    ]:
        assert family_of_model(model).name == name
    assert family_of(RunOptions()).name == "wd"  # auto answers as the first
    assert family_of_parameters({"l": 9, "k": 4, "reverse_complement": 1, "C": 1})
    assert family("gkm").estimator_class("regression") is GkmSVR


def test_unknown_family_is_one_clear_error():
    with pytest.raises(InputError, match="one of"):
        family("lstm")
    with pytest.raises(InputError, match="kernel must be one of"):
        RunOptions(kernel="lstm").check()
    with pytest.raises(InputError, match="not a family"):

        class Auto(Family):
            name = "auto"

        register(Auto())


def test_a_registered_family_is_a_kernel_of_the_options(spectrum):
    options = RunOptions(kernel="spectrum")
    options.check()
    assert options.selects and options.defaults() == SpectrumFamily.defaults
    assert options.fixed() == dict.fromkeys(SpectrumFamily.defaults)
    (name, _, grid), *rest = search_families(options, 60, 100)
    assert (name, rest) == ("spectrum", [])
    assert grid.to_dict()["l"] == [5] and len(grid.C) == 5
    template = spectrum.estimator(options, {"l": 5, "k": 5, "C": 0.1})
    assert (template.l, template.k, template.C) == (5, 5, 0.1)
    assert RunOptions(kernel="auto").fixed() != options.fixed()


def test_a_new_family_runs_end_to_end(tmp_path, spectrum):
    """`poimkit run --kernel spectrum`: CV, POIMs, motifs and report."""
    write_gattaca(tmp_path, 60, 40, 20, 3)
    out = tmp_path / "out"
    code = main(
        ["run", "--pos", tmp_path / "p.fa", "--neg", tmp_path / "n.fa"]
        + ["--kernel", "spectrum", "--cv", "2", "--max-order", "4", "--quiet"]
        + ["-o", out]
    )
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["family"] == "spectrum"
    assert summary["parameters"]["chosen"]["k"] == 5
    assert summary["position_free"] is True
    assert summary["cv_auc"] > 0.8  # GATTACA is found by its 5-mers
    assert summary["motifs"] and "GATTAC" in summary["motifs"][0]["consensus"]
    with np.load(out / "poim.npz", allow_pickle=False) as poim:
        assert poim.files  # exact POIMs of the l-mer table, read without pickles
    report = (out / "report.html").read_text()
    assert "spectrum model" in report
