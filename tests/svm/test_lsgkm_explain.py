"""LS-GKM model files downstream: load_model, ``poimkit score``, exact POIMs."""

import gzip

import numpy as np
import pytest
from numpy.testing import assert_allclose

from poimkit import compute_poim, load_model
from poimkit.background import MarkovBackground
from poimkit.errors import InputError
from poimkit.poim.reference import poim_reference
from poimkit.svm.lsgkm import LsgkmModel, read_lsgkm

from ..cli_runs import main
from .test_lsgkm import model_text, random_strings


def write_model(tmp_path, kernel="gkm_cnt", norc=0, gz=False, lengths=(8, 20)):
    rng = np.random.default_rng(7)
    support = random_strings(rng, 7, *lengths)
    coef = rng.normal(size=7).round(6)
    text = model_text(kernel, 4, 2, 2, support, coef, 0.125, norc)
    if gz:
        path = tmp_path / "model.txt.gz"
        with gzip.open(path, "wt") as handle:
            handle.write(text)
    else:
        path = tmp_path / "model.txt"
        path.write_text(text)
    return path


@pytest.mark.parametrize("gz", [False, True])
def test_load_model_reads_lsgkm_files(tmp_path, gz):
    path = write_model(tmp_path, "gkm_estfull", gz=gz)
    model = load_model(path)
    assert isinstance(model, LsgkmModel)
    test = random_strings(np.random.default_rng(0), 5, 6, 30)
    assert_allclose(
        model.decision_function(test), read_lsgkm(path).decision_function(test)
    )


def test_load_model_still_refuses_other_files(tmp_path):
    path = tmp_path / "junk.txt"
    path.write_text("hello\nworld\n")
    with pytest.raises(InputError, match="junk.txt"):
        load_model(path)


@pytest.mark.parametrize("kernel", ["gkm_cnt", "gkm_esttrunc"])
def test_cli_score_equals_decision_function(tmp_path, kernel):
    """``poimkit score`` of an LS-GKM file: the model's own scores and labels."""
    path = write_model(tmp_path, kernel)
    rng = np.random.default_rng(1)
    test = random_strings(rng, 9, 6, 40)
    fasta = tmp_path / "test.fa"
    fasta.write_text("".join(f">r{i}\n{s}\n" for i, s in enumerate(test)))
    out = tmp_path / "scores.tsv"
    assert main(["score", path, fasta, "-o", out]) == 0
    rows = [line.split("\t") for line in out.read_text().splitlines()[1:]]
    expected = read_lsgkm(path).decision_function(test)
    assert [r[0] for r in rows] == [f"r{i}" for i in range(9)]
    assert_allclose([float(r[1]) for r in rows], expected, rtol=1e-9, atol=1e-12)
    assert [r[2] for r in rows] == ["NA"] * 9  # an LS-GKM file has no calibration
    assert [int(r[3]) for r in rows] == [1 if s > 0 else -1 for s in expected]


def test_cli_score_windows_are_exact(tmp_path):
    """--windows cuts windows and scores them with LS-GKM's own normalisation."""
    path = write_model(tmp_path)
    model = read_lsgkm(path)
    record = random_strings(np.random.default_rng(2), 1, 50, 50)[0]
    fasta = tmp_path / "one.fa"
    fasta.write_text(f">one\n{record}\n")
    out = tmp_path / "windows.tsv"
    assert main(["score", path, fasta, "-o", out, "--windows", "3"]) == 0
    rows = [line.split("\t") for line in out.read_text().splitlines()[1:]]
    width = model.length_
    starts = list(range(0, len(record) - width + 1, 3))
    cut = [record[s : s + width] for s in starts]
    got = [float(r[-1]) for r in rows]
    assert len(got) == len(starts)
    assert_allclose(got, model.decision_function(cut), rtol=1e-9, atol=1e-12)


def test_normalisation_constant_is_the_mean_diagonal_at_one_length(tmp_path):
    path = write_model(tmp_path, lengths=(12, 12))
    model = read_lsgkm(path)
    diagonal = model.self_kernel(model.support)
    assert model.length_ == 12
    assert model.normalisation_constant(12) == pytest.approx(diagonal.mean())
    assert model.normalisation_constant(21) == pytest.approx(diagonal.mean() * 2)


@pytest.mark.parametrize("kernel", ["gkm_cnt", "gkm_estfull"])
@pytest.mark.parametrize("norc", [0, 1])
@pytest.mark.parametrize("order", [0, 1])
def test_poim_is_exact_for_the_unnormalised_linear_part(tmp_path, kernel, norc, order):
    """compute_poim against enumeration of sum_w f[x_w] / sqrt(c_L) + b."""
    path = write_model(tmp_path, kernel, norc)
    model = read_lsgkm(path)
    L = 6
    background = (
        MarkovBackground.uniform(L)
        if order == 0
        else MarkovBackground.fit(
            np.random.default_rng(3).integers(0, 4, (200, L)).astype(np.uint8), order=1
        )
    )
    poim = compute_poim(model, 3, background)
    f = model.lmer_weights()
    c = model.normalisation_constant(L)
    powers = 4 ** np.arange(model.l)[::-1]

    def linear(X):
        X = np.asarray(X, dtype=np.int64)
        idx = np.stack(
            [X[:, j : j + model.l] @ powers for j in range(L - model.l + 1)], axis=1
        )
        return f[idx].sum(axis=1) / np.sqrt(c) + model.intercept_

    expected = poim_reference(linear, poim.background, 3)
    for order_l in range(1, 4):
        assert_allclose(poim.q(order_l), expected[order_l - 1], atol=1e-10)
    assert "un-normalised" in poim.metadata["explains"]
    assert float(poim.metadata["normalisation_constant"]) == pytest.approx(c)
    assert poim.metadata["model_kernel_type"] == str(model.kernel_type)


def test_linear_part_matches_score_when_self_kernel_is_the_constant(tmp_path):
    """Sanity of f's indexing: sum_w f[x_w] / sqrt(K(x, x)) + b is the score."""
    path = write_model(tmp_path)
    model = read_lsgkm(path)
    X = np.random.default_rng(4).integers(0, 4, (20, 9)).astype(np.uint8)
    powers = 4 ** np.arange(model.l)[::-1]
    f = model.lmer_weights()
    rows = np.array(
        [sum(f[x[j : j + model.l] @ powers] for j in range(9 - model.l + 1)) for x in X]
    )
    got = rows / np.sqrt(model.self_kernel(X)) + model.intercept_
    assert_allclose(got, model.decision_function(X), rtol=1e-10)


def test_cli_poim_of_an_lsgkm_file(tmp_path):
    path = write_model(tmp_path)
    out = tmp_path / "poim.npz"
    assert main(["poim", path, "-o", out, "--max-order", "2", "--quiet"]) == 0
    from poimkit.poim.result import Poim

    poim = Poim.load(out)
    assert "un-normalised" in poim.metadata["explains"]
    assert poim.length == read_lsgkm(path).length_


@pytest.mark.parametrize("norc", [0, 1])
def test_variant_effects_are_exact_for_the_normalised_score(tmp_path, norc):
    """SNVs, insertions, deletions: effects and their k-mer sums equal the scores."""
    from poimkit import variant_effects

    model = read_lsgkm(write_model(tmp_path, "gkm_estfull", norc))
    rng = np.random.default_rng(5)
    refs, alts = [], []
    for ref in random_strings(rng, 30, 12, 30):
        p = int(rng.integers(0, len(ref) - 2))
        kind = len(refs) % 3
        if kind == 0:  # SNV
            alt = ref[:p] + "ACGT"[("ACGT".index(ref[p]) + 1) % 4] + ref[p + 1 :]
        elif kind == 1:  # insertion
            alt = ref[:p] + "GAT" + ref[p:]
        else:  # deletion
            alt = ref[:p] + ref[p + 2 :]
        refs.append(ref)
        alts.append(alt)
    fx = variant_effects(model, refs, alts, top=2)
    ref_scores = model.decision_function(refs)
    alt_scores = model.decision_function(alts)
    assert_allclose(fx.ref_score, ref_scores, rtol=1e-10, atol=1e-12)
    assert_allclose(fx.effect, alt_scores - ref_scores, rtol=1e-9, atol=1e-12)
    for i in range(len(refs)):
        total = sum(c.change for c in fx.changes(i))
        assert total == pytest.approx(fx.effect[i], rel=1e-9, abs=1e-12)


def test_cli_variants_of_an_lsgkm_file(tmp_path):
    path = write_model(tmp_path)
    pairs = tmp_path / "p.tsv"
    ref, alt = "ACGATTACAGTTGCA", "ACGATCACAGTTGCA"
    pairs.write_text(f"a\t{ref}\t{alt}\nb\t{ref}\t{ref[:5] + ref[7:]}\n")
    out = tmp_path / "e.tsv"
    assert main(["variants", path, "--pairs", pairs, "-o", out, "--quiet"]) == 0
    lines = out.read_text().splitlines()
    header = lines[0].split("\t")
    effects = [float(line.split("\t")[header.index("effect")]) for line in lines[1:]]
    model = read_lsgkm(path)
    expected = model.decision_function([alt, ref[:5] + ref[7:]]) - (
        model.decision_function([ref, ref])
    )
    assert_allclose(effects, expected, rtol=1e-5, atol=1e-6)


def test_cli_motifs_of_an_lsgkm_poim_have_no_position(tmp_path, capsys):
    """An LS-GKM model is position-free: motifs of its POIM alone occur anywhere."""
    from pathlib import Path

    from poimkit.motifs.formats import read_motifs

    model = Path(__file__).parents[1] / "data" / "lsgkm" / "t0_norc0.model.txt.gz"
    poim = tmp_path / "poim.npz"
    assert main(["poim", model, "-o", poim, "--max-order", "4", "--quiet"]) == 0
    capsys.readouterr()  # the POIM's top k-mers
    out = tmp_path / "motifs.meme"
    argv = ["motifs", poim, "-o", out, "--max-motifs", "1", "--seed", "0", "--quiet"]
    assert main(argv) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    columns = header.split("\t")
    assert rows
    for row in rows:
        cells = dict(zip(columns, row.split("\t"), strict=True))
        assert cells["position"] == cells["spread"] == "any"
    for motif in read_motifs(out):
        assert np.isnan(motif.position) and np.isnan(motif.spread)
