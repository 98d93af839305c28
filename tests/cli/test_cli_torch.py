"""The command line on deep models: train --kernel cnn, and torch files as MODEL."""

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from poimkit import InputError, RunOptions, load_model  # noqa: E402
from poimkit.torch import DilatedCNN, as_scorer  # noqa: E402

from ..cli_runs import main, strict_json, write_gattaca  # noqa: E402


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    """Planted GATTACA records in FASTA, and a tiny CNN saved as TorchScript."""
    folder = tmp_path_factory.mktemp("torch_cli")
    X, y = write_gattaca(folder, 80, 24, mean=8, sd=2)
    torch.manual_seed(0)
    net = DilatedCNN(filters=4, width=5, layers=1).eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.jit.save(torch.jit.script(net), str(folder / "net.pt"))
    return folder, X, y, net


def test_train_kernel_cnn_saves_a_calibrated_cnn(case, tmp_path, capsys):
    folder, X, _, _ = case
    out = tmp_path / "cnn.npz"
    args = ["train", "--pos", folder / "p.fa", "--neg", folder / "n.fa"]
    small = ["--cnn-filters", "8", "--cnn-layers", "2", "--cnn-epochs", "5"]
    assert main([*args, "--kernel", "cnn", *small, "--cv", "2", "-o", out]) == 0
    printed = capsys.readouterr()
    assert printed.out.startswith("cv_auc\t")
    assert "a CNN (8 filters" in printed.err
    model = load_model(out)
    assert model.calibration_ is not None
    assert model.predict_proba(X[:3]).shape == (3, 2)


def test_poim_explain_and_variants_take_a_torchscript_file(case, tmp_path):
    folder, X, y, net = case
    model = ["--input-length", "24", "--quiet"]
    poim = tmp_path / "poim.npz"
    args = ["poim", folder / "net.pt", "--max-order", "2", "--samples", "4"]
    assert main([*args, "-o", poim, "--top", "0", *model]) == 0
    from poimkit import Poim

    found = Poim.load(poim)
    assert found.metadata["method"] == "sampled" and found.q(2).shape == (23, 16)
    assert found.metadata["windows"] == "all"  # a declared length: positional
    assert main([*args, "-o", poim, "--top", "0", *model, "--windows", "centre"]) == 0
    central = Poim.load(poim)
    assert central.metadata["windows"] == "centre"
    assert np.all(central.q(2) == central.q(2)[11])  # one window for all
    observed = [*args[:-1], "300", "--estimator", "observed", "--windows", "pooled"]
    assert main([*observed, "-o", poim, "--top", "0", *model]) == 0
    pooled = Poim.load(poim)
    assert pooled.metadata["estimator"] == "observed"
    assert "300 samples in all" in pooled.metadata["exact"]
    assert np.all(pooled.q(2) == pooled.q(2)[0])  # one estimate for all starts
    assert main([*observed[:-2], "--windows", "centre", "-o", poim, *model]) == 2
    out = tmp_path / "explained"
    args = ["explain", folder / "net.pt", "--fasta", folder / "p.fa", "--top", "1"]
    assert main([*args, "-o", out, *model]) == 0
    summary = strict_json(out / "summary.json")
    assert summary["attributions"] == "in-silico mutagenesis"
    attr = np.load(out / "attr.npz")["arr_0"]
    assert attr.shape == (80, 4, 24)
    assert np.allclose(attr.sum(axis=1), 0.0, atol=1e-6)  # centred per position
    scores = np.loadtxt(out / "scores.tsv", skiprows=1, usecols=1)
    assert np.allclose(scores, as_scorer(net).decision_function(X[y == 1]))
    pairs = tmp_path / "pairs.tsv"
    ref = "".join("ACGT"[c] for c in X[0])
    alt = ref[:5] + ("A" if ref[5] != "A" else "C") + ref[6:]
    pairs.write_text(f"v1\t{ref}\t{alt}\n")
    effects = tmp_path / "effects.tsv"
    args = ["variants", folder / "net.pt", "--pairs", pairs, "-o", effects]
    assert main([*args, *model]) == 0
    row = effects.read_text().splitlines()[1].split("\t")
    expected = np.diff(as_scorer(net).decision_function([ref, alt]))[0]
    assert np.isclose(float(row[5]), expected, atol=1e-6)


def test_interactions_writes_a_map(case, tmp_path):
    folder = case[0]
    out = tmp_path / "pair"
    args = ["interactions", folder / "net.pt", "GATT", "ACA", "--max-distance", "3"]
    assert main([*args, "--samples", "8", "--input-length", "24", "-o", out]) == 0
    rows = (out / "interactions.tsv").read_text().splitlines()
    assert rows[0].startswith("orientation\tdistance\tinteraction")
    assert len(rows) == 1 + 4 * 4
    summary = strict_json(out / "summary.json")
    assert summary["n_evaluations"] == 8 * (1 + 3 * 4 * 4)
    assert (out / "interactions.png").stat().st_size > 0


def test_torch_options_and_kernel_cnn_refuse_what_does_not_apply(
    case, tmp_path, capsys
):
    folder = case[0]
    npz = tmp_path / "m.npz"
    from poimkit import WDKernelSVC

    X, y = case[1], case[2]
    WDKernelSVC(degree=3).fit(X, y).save(npz)
    args = ["poim", npz, "-o", tmp_path / "p.npz", "--head", "1"]
    assert main(args) == 2
    assert "apply to saved torch models only" in capsys.readouterr().err
    with pytest.raises(InputError, match="not of kernel='cnn'"):
        RunOptions(kernel="cnn", degree=3).check()
    args = ["train", "--pos", folder / "p.fa", "--neg", folder / "n.fa"]
    assert main([*args, "--kernel", "cnn", "--degree", "3", "-o", npz]) == 2


def test_run_kernel_cnn_writes_a_report_with_sampled_poims(case, tmp_path):
    folder = case[0]
    out = tmp_path / "run"
    args = ["run", "--pos", folder / "p.fa", "--neg", folder / "n.fa", "-o", out]
    small = ["--cnn-filters", "8", "--cnn-layers", "2", "--cnn-epochs", "4"]
    assert (
        main(
            [
                *args,
                "--kernel",
                "cnn",
                *small,
                "--cv",
                "2",
                "--max-order",
                "3",
                "--quiet",
            ]
        )
        == 0
    )
    summary = strict_json(out / "summary.json")
    assert summary["family"] == "cnn" and summary["n_support_vectors"] is None
    assert summary["n_parameters"] > 0
    assert summary["parameters"]["chosen"]["filters"] == 8
    assert summary["position_free"]
    from poimkit import Poim

    poim = Poim.load(out / "poim.npz")
    assert poim.metadata["method"] == "sampled" and poim.max_order == 3
    assert poim.background.length == 24
    assert poim.metadata["windows"] == "centre" and poim.metadata["n_samples"] == "32"
    report = (out / "report.html").read_text()
    assert "dilated residual CNN" in report and "parameters:" in report
    assert load_model(out / "model.npz").calibration_ is not None
