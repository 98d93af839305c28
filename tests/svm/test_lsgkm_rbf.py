"""LS-GKM model files of kernel types 3, 4, 5: exact scores, sampled POIMs, refusals."""

import math
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose

from poimkit import compute_poim, load_model
from poimkit.background import MarkovBackground
from poimkit.errors import InputError
from poimkit.poim.reference import poim_reference
from poimkit.poim.score_only import sampled_score_only_poim
from poimkit.svm.lsgkm import read_lsgkm
from poimkit.svm.lsgkm_rbf import LsgkmKernelModel, window_weights

from ..cli_runs import main
from ..naive import lsgkm_rbf_score_naive
from .test_lsgkm import model_text, random_strings

DATA = Path(__file__).parents[1] / "data" / "lsgkm"
NAMES = {3: "gkmrbf", 4: "wgkm", 5: "wgkmrbf"}


def rbf_text(t, l, k, d, support, coef, rho, norc=0, gamma=0.7, M=40, H=3.5):
    """An LS-GKM file of type t with the header lines gkmtrain writes."""
    text = model_text(NAMES[t], l, k, d, support, coef, rho, norc)
    extra = ([f"gamma {gamma}"] if t != 4 else []) + (
        [f"M {M}", f"H {H}"] if t != 3 else []
    )
    return text.replace("nr_class 2", "\n".join([*extra, "nr_class 2"]))


def write_rbf(tmp_path, t, norc=0, lengths=(8, 16), n=6, seed=3):
    rng = np.random.default_rng(seed)
    support = random_strings(rng, n, *lengths)
    coef = rng.normal(size=n).round(6)
    path = tmp_path / f"t{t}.model.txt"
    path.write_text(rbf_text(t, 4, 2, 2, support, coef, 0.125, norc))
    return path, support, coef


# ------------------------------------------------------------------ definitions
def test_window_weights_follow_lsgkm_formula():
    """Centre c = n // 2 weighs M; weights halve every H windows, +1, floored."""
    w = window_weights(8, 40, 3.5)
    assert w[4] == 40 and w.max() == 40  # c = 4 for 8 windows
    assert w.tolist() == [
        min(40, math.floor(40 * 2 ** (-abs(4 - a) / 3.5) + 1)) for a in range(8)
    ]
    assert window_weights(5, 255, 1.0)[2] == 0  # 256 wraps in LS-GKM's byte
    assert window_weights(1, 7, 2.0).tolist() == [7.0]


@pytest.mark.parametrize("t", [3, 4, 5])
@pytest.mark.parametrize("norc", [0, 1])
def test_scores_equal_the_definition(tmp_path, t, norc):
    path, support, coef = write_rbf(tmp_path, t, norc)
    model = read_lsgkm(path)
    assert isinstance(model, LsgkmKernelModel) and model.kernel_type == t
    if t != 4:
        assert model.gamma == 0.7
    if t != 3:
        assert (model.M, model.H) == (40, 3.5)
    test = random_strings(np.random.default_rng(9), 12, 4, 21)
    expected = [
        lsgkm_rbf_score_naive(
            t, 4, 2, 2, support, coef, 0.125, not norc, 0.7, 40, 3.5, x
        )
        for x in test
    ]
    assert_allclose(model.decision_function(test), expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("norc", [0, 1])
def test_wgkm_lmer_weights_equal_the_kernel_expansion(tmp_path, norc):
    """-t 4 scores through its l-mer table equal sum_i c_i k(x, x_i) - rho."""
    model = read_lsgkm(write_rbf(tmp_path, 4, norc, lengths=(6, 30), n=9)[0])
    test = random_strings(np.random.default_rng(2), 20, 4, 40)
    expansion = model.kernel(test) @ model.dual_coef_ + model.intercept_
    assert_allclose(model.decision_function(test), expansion, rtol=1e-10)


# ---------------------------------------------------------------- against LS-GKM
@pytest.mark.parametrize("t", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("norc", [0, 1])
def test_scores_equal_lsgkm_gkmpredict(t, norc):
    """Files written by gkmtrain score as gkmpredict does (6 printed digits).

    Every kernel type, with its header as gkmtrain writes it.
    """
    stem = DATA / f"t{t}_norc{norc}"
    model = read_lsgkm(f"{stem}.model.txt.gz")
    assert model.reverse_complement == (norc == 0)
    lines = (DATA / "test.fa").read_text().split()
    test = [s for s in lines if not s.startswith(">")]
    theirs = np.loadtxt(f"{stem}.pred.txt")
    ours = model.decision_function(test)
    # gkmpredict prints 6 significant digits: half a unit of the 6th
    digit = 10.0 ** (np.floor(np.log10(np.maximum(np.abs(theirs), 1e-300))) - 5)
    assert (np.abs(ours - theirs) <= 0.5 * digit + 1e-9).all()
    assert np.abs(ours - theirs).max() <= 1e-5 * (theirs.max() - theirs.min())


def test_gkmsvm_lite_files_are_read_as_lsgkm_defines_them(tmp_path):
    """gkmsvm-lite's wgkm/gkmrbf are other kernels: its files load, scores differ."""
    gkmsvm = pytest.importorskip("gkmsvm")
    rng = np.random.default_rng(4)
    pos = [s[:10] + "GATTACAG" + s[18:] for s in random_strings(rng, 20, 30, 30)]
    neg = random_strings(rng, 20, 30, 30)
    peer = gkmsvm.train_gkmsvm(
        pos, neg, kernel_type=3, l=6, k=4, d=2, gamma=0.5, device="cpu"
    )
    path = tmp_path / "peer.model.txt"
    gkmsvm.save_lsgkm(peer, path)
    model = read_lsgkm(path)
    assert (model.kernel_type, model.gamma) == (3, 0.5)
    assert np.isfinite(model.decision_function(pos[:3])).all()


@pytest.mark.parametrize(
    ("t", "line"), [(3, "gamma 0.7\n"), (4, "M 40\n"), (5, "H 3.5\n")]
)
def test_missing_kernel_parameters_are_refused(tmp_path, t, line):
    path, _, _ = write_rbf(tmp_path, t)
    path.write_text(path.read_text().replace(line, ""))
    with pytest.raises(InputError, match=f"no '{line.split()[0]}' line") as info:
        read_lsgkm(path)
    assert str(path) in str(info.value)


# ---------------------------------------------------------- explanations
@pytest.mark.parametrize("t", [3, 4, 5])
def test_sampled_poim_agrees_with_enumeration(tmp_path, t):
    """Sampled POIMs of L = 6 lie within 5 standard errors of the exact ones."""
    model = read_lsgkm(write_rbf(tmp_path, t, lengths=(6, 9))[0])
    background = MarkovBackground.uniform(6)
    poim = sampled_score_only_poim(model, 2, background, n_samples=400, random_state=0)
    assert poim.metadata["method"] == "sampled"
    assert poim.metadata["exact"].startswith("no")
    assert poim.metadata["model_kernel_type"] == str(t)
    exact = poim_reference(model.decision_function, background, 2)
    for order in (1, 2):
        err = np.abs(poim.q(order) - exact[order - 1])
        se = poim.stderr[order - 1]
        assert (err <= 5 * se + 1e-12).all()
        assert np.abs(exact[order - 1]).max() > 10 * se.max()  # not a flat model


def test_exact_poim_is_refused_naming_file_and_kernel(tmp_path):
    path = write_rbf(tmp_path, 5)[0]
    with pytest.raises(InputError, match=r"t5.model.txt \(LS-GKM kernel_type wgkmrbf"):
        compute_poim(load_model(path), 2)


def test_cli_poim_samples_and_says_so(tmp_path):
    from poimkit.poim.result import Poim

    path = write_rbf(tmp_path, 3)[0]
    out = tmp_path / "poim.npz"
    argv = ["poim", path, "-o", out, "--max-order", "2", "--samples", "50", "--quiet"]
    assert main(argv) == 0
    poim = Poim.load(out)
    assert poim.metadata["method"] == "sampled"
    assert "Monte Carlo" in poim.metadata["exact"]
    assert poim.length == read_lsgkm(path).length_


@pytest.mark.parametrize("t", [3, 4, 5])
def test_variant_effects_score_both_sequences(tmp_path, t):
    from poimkit import variant_effects

    model = read_lsgkm(write_rbf(tmp_path, t)[0])
    refs = random_strings(np.random.default_rng(5), 8, 10, 20)
    alts = [r[:4] + "GAT" + r[6:] for r in refs]
    fx = variant_effects(model, refs, alts, top=2)
    ref_scores = model.decision_function(refs)
    assert_allclose(fx.ref_score, ref_scores)
    assert_allclose(fx.effect, model.decision_function(alts) - ref_scores)
    assert fx.top_strings() == ["."] * len(refs)


def test_cli_variants_and_their_plots_refusal(tmp_path, capsys):
    path = write_rbf(tmp_path, 4)[0]
    pairs = tmp_path / "p.tsv"
    ref, alt = "ACGATTACAGTTGCA", "ACGATCACAGTTGCA"
    pairs.write_text(f"a\t{ref}\t{alt}\n")
    out = tmp_path / "e.tsv"
    assert main(["variants", path, "--pairs", pairs, "-o", out, "--quiet"]) == 0
    lines = out.read_text().splitlines()
    effect = float(lines[1].split("\t")[lines[0].split("\t").index("effect")])
    model = read_lsgkm(path)
    expected = np.diff(model.decision_function([ref, alt]))[0]
    assert effect == pytest.approx(expected, rel=1e-12, abs=1e-15)
    argv = ["variants", path, "--pairs", pairs, "-o", out, "--plots", "1"]
    assert main([*argv, "--quiet", "--force"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "kernel_type wgkm, -t 4" in err[0] and "t4.model" in err[0]


def test_cli_score_of_an_rbf_file(tmp_path):
    path = write_rbf(tmp_path, 5)[0]
    test = random_strings(np.random.default_rng(1), 5, 6, 30)
    fasta = tmp_path / "test.fa"
    fasta.write_text("".join(f">r{i}\n{s}\n" for i, s in enumerate(test)))
    out = tmp_path / "scores.tsv"
    assert main(["score", path, fasta, "-o", out, "--quiet"]) == 0
    rows = [line.split("\t") for line in out.read_text().splitlines()[1:]]
    got = [float(r[1]) for r in rows]
    assert_allclose(got, read_lsgkm(path).decision_function(test), rtol=1e-6)


@pytest.mark.parametrize("t", [3, 5])
def test_sampled_poim_of_a_position_free_model_is_position_free(tmp_path, t):
    """Like the exact POIM of a gkm model, so its motifs are found anywhere."""
    model = read_lsgkm(write_rbf(tmp_path, t, lengths=(6, 9))[0])
    assert model.position_free
    poim = sampled_score_only_poim(model, 2, n_samples=20, random_state=0)
    assert poim.position_free
    assert poim.metadata["model_class"] == type(model).__name__
    assert all(position is None for _, position, _ in poim.top(5))
