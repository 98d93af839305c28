"""Motifs from sites: exact ISM, site statistics, planted truths, the null."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from poimkit import MarkovBackground, WDKernelSVC, compute_poim, extract_motifs
from poimkit.cli import main
from poimkit.datasets import PlantedMotif, make_motif_data
from poimkit.io import write_fasta
from poimkit.kernels.explicit import KmerWeights
from poimkit.motifs import sites as S
from poimkit.motifs.compare import MIN_TOMTOM_TARGETS, tomtom_p_values
from poimkit.motifs.evidence import q_values
from poimkit.motifs.formats import read_motifs
from poimkit.motifs.motif import Motif

from ..factories import make_weights, random_chain
from ..naive import all_sequences, bh_q_values_naive, mutagenesis_naive


# --------------------------------------------------------------------------- #
# exact in-silico mutagenesis
# --------------------------------------------------------------------------- #
@settings(max_examples=30, deadline=None)
@given(
    length=st.integers(3, 9),
    max_k=st.integers(1, 4),
    seed=st.integers(0, 2**31 - 1),
)
def test_mutagenesis_matches_scoring_mutated_sequences(length, max_k, seed):
    rng = np.random.default_rng(seed)
    max_k = min(max_k, length)
    entries = {}
    for k in range(1, max_k + 1):
        for i in range(length - k + 1):
            for z in rng.choice(4**k, size=min(4**k, 3), replace=False):
                entries[(k, i, int(z))] = float(rng.normal())
    weights = make_weights(length, entries, bias=0.5)
    X = rng.integers(0, 4, size=(4, length), dtype=np.uint8)
    width = int(rng.integers(1, length + 1))
    rows = rng.integers(0, 4, size=5)
    starts = rng.integers(0, length - width + 1, size=5)
    got = weights.mutagenesis(X, rows=rows, starts=starts, width=width)
    assert_allclose(got, mutagenesis_naive(weights, X, rows, starts, width), atol=1e-12)


def test_mutagenesis_of_a_trained_wds_model():
    X, y = make_motif_data(60, 60, 14, [PlantedMotif("GATTA", 5)], random_state=2)
    model = WDKernelSVC(degree=6, shift=2).fit(X, y)
    weights = model.explicit_weights()
    got = weights.mutagenesis(X[:3])
    expected = mutagenesis_naive(model, X, range(3), [0, 0, 0], 14)
    assert_allclose(got, expected, rtol=0, atol=1e-9)
    assert (got[np.arange(3)[:, None], np.arange(14), X[:3]] == 0).all()


def test_mutagenesis_refuses_windows_outside():
    weights = KmerWeights.from_tables([np.zeros((5, 4))], bias=0.0)
    X = np.zeros((2, 5), dtype=np.uint8)
    with pytest.raises(ValueError, match="windows must lie inside X"):
        weights.mutagenesis(X, rows=[0], starts=[3], width=3)
    with pytest.raises(ValueError, match="length 4"):
        weights.mutagenesis(np.zeros((1, 4), dtype=np.uint8))


# --------------------------------------------------------------------------- #
# site statistics
# --------------------------------------------------------------------------- #
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), p=st.sampled_from([1e-3, 0.01, 0.1]))
def test_score_threshold_by_enumeration(seed, p):
    rng = np.random.default_rng(seed)
    m = 4
    background = rng.dirichlet(np.ones(4) * 3)
    lods = np.round(rng.normal(size=(m, 4)) / S.SCORE_GRID) * S.SCORE_GRID
    threshold, chance = S.score_threshold(lods, background, p)
    words = all_sequences(m)
    scores = lods[np.arange(m), words].sum(axis=1)
    prob = background[words].prod(axis=1)
    # the threshold keeps the chance of a window at or above it within p ...
    best = scores.max()
    if prob[scores >= best - 1e-9].sum() <= p:
        assert prob[scores >= threshold].sum() <= p * (1 + 1e-9)
        assert chance == pytest.approx(prob[scores >= threshold].sum(), abs=1e-12)
        # ... and the next score below it would not
        lower = scores[scores < threshold]
        assert lower.size == 0 or prob[scores >= lower.max() - 1e-9].sum() > p
    else:  # or, when even the consensus is likelier, only the consensus
        assert threshold == pytest.approx(best, abs=1e-6)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    m=st.integers(3, 7),
    n_allowed=st.integers(1, 60),
)
def test_tolerated_by_enumeration(seed, m, n_allowed):
    rng = np.random.default_rng(seed)
    background = rng.dirichlet(np.ones(4) * 3)
    seed_codes = rng.integers(0, 4, size=m)
    seed_str = "".join("ACGT"[c] for c in seed_codes)
    words = all_sequences(m)
    prob = background[words].prod(axis=1)
    wrong = (words != seed_codes).sum(axis=1)
    t = S.tolerated(seed_str, n_allowed, background)
    rate = lambda k: n_allowed * prob[wrong <= k].sum()  # noqa: E731
    assert 0 <= t <= m // 3
    assert t == 0 or rate(t) <= S.FIRST_RATE + 1e-12
    if t < m // 3:
        assert rate(t + 1) > S.FIRST_RATE - 1e-12


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=12))
def test_q_values_are_benjamini_hochberg(p):
    p = np.asarray(p)
    assert_allclose(q_values(p), bh_q_values_naive(p), rtol=1e-12)


def test_tomtom_p_values_find_the_copy():
    rng = np.random.default_rng(0)
    query = Motif(np.eye(4)[[2, 0, 3, 3, 0, 1, 0]] * 0.9 + 0.025, 1.0, 0.0)
    known = [
        Motif(rng.dirichlet(np.ones(4) * 0.5, size=int(rng.integers(6, 12))), 1.0, 0.0)
        for _ in range(MIN_TOMTOM_TARGETS + 15)
    ]
    known[7] = Motif(query.pwm[::-1, ::-1].copy(), 1.0, 0.0)  # other strand
    p = tomtom_p_values(query, known)
    assert p[7] < 1e-4
    assert np.median(np.delete(p, 7)) > 0.05
    assert np.isnan(tomtom_p_values(query, known[:5])).all()


# --------------------------------------------------------------------------- #
# planted truths and the null
# --------------------------------------------------------------------------- #
def motifs_of(X, y, background=None, degree=20, shift=0, max_order=6, **kw):
    model = WDKernelSVC(degree=degree, shift=shift).fit(X, y)
    poim = compute_poim(model, max_order, background)
    return extract_motifs(poim, max_motifs=3, sequences=X, labels=y, **kw)


def close(found, truth):
    """Mismatches of truth against the found consensus at the best offset."""
    best = len(truth)
    for off in range(-len(truth) + 1, len(found)):
        covered = sum(
            found[off + i] == truth[i]
            for i in range(len(truth))
            if 0 <= off + i < len(found)
        )
        best = min(best, len(truth) - covered)
    return best


def check_evidence(motif):
    assert motif.q_value <= 0.05 and motif.p_value <= motif.q_value + 1e-300
    # a negative-class motif (label 0) is counted the other way round
    carriers, others = motif.frac_positive, motif.frac_negative
    assert (carriers > others) == bool(motif.label)
    assert motif.n_sites == int((motif.sites.rows.size > 0) and motif.n_sites)
    assert_allclose(
        motif.pwm * motif.n_sites, np.rint(motif.pwm * motif.n_sites), atol=1e-9
    )


def test_spread_motif_from_its_sites():
    truth = PlantedMotif("GATTACA", 30, spread=5)
    X, y, record = make_motif_data(
        500, 500, 60, [truth], random_state=5, return_record=True
    )
    (motif,) = motifs_of(X, y)
    assert close(motif.consensus, "GATTACA") <= 1
    assert motif.position == pytest.approx(30, abs=2)
    assert motif.spread == pytest.approx(5, rel=0.3)
    check_evidence(motif)
    # sites are the planted copies: most planted starts are found
    sites = motif.sites
    pos_rows = sites.rows[y[sites.rows] == 1]
    assert pos_rows.size >= 0.8 * 500
    planted = record.starts[pos_rows, 0]
    found = sites.starts[y[sites.rows] == 1] + motif.consensus.find("GATTAC")
    assert np.mean(found == planted) >= 0.9
    # the PWM is as sharp as the copies (FIRM mutation: about 0.89 per column)
    assert motif.pwm.max(axis=1).min() >= 0.8


def test_motif_under_a_markov_background():
    rng = np.random.default_rng(4)
    chain = random_chain(rng, 1, 50, positional=False)
    X, y = make_motif_data(
        500, 500, 50, [PlantedMotif("TACGAT", 25, spread=1)], chain, random_state=4
    )
    fitted = MarkovBackground.fit(X, order=1)
    motifs = motifs_of(X, y, background=fitted)
    assert close(motifs[0].consensus, "TACGAT") <= 1
    assert motifs[0].position == pytest.approx(25, abs=2)
    for motif in motifs:
        check_evidence(motif)


def test_two_motifs_and_both_strands():
    X, y = make_motif_data(
        500,
        500,
        60,
        [
            PlantedMotif("ACGTTGCA", 12, spread=1, reverse_complement=0.5),
            PlantedMotif("GGATCCTA", 40, spread=1),
        ],
        random_state=6,
    )
    motifs = motifs_of(X, y)
    assert len(motifs) == 2
    rc = {"ACGTTGCA": "TGCAACGT"}
    first = next(m for m in motifs if m.position < 25)
    second = next(m for m in motifs if m.position > 25)
    assert (
        min(close(first.consensus, "ACGTTGCA"), close(first.consensus, rc["ACGTTGCA"]))
        <= 1
    )
    # the copies on the other strand are the same motif's '-' sites
    assert set(first.sites.strands.tolist()) == {1, -1}
    assert close(second.consensus, "GGATCCTA") <= 1
    assert set(second.sites.strands.tolist()) == {1}


def test_wds_model():
    X, y = make_motif_data(
        400,
        400,
        50,
        [PlantedMotif("CATGGTAC", 20, spread=2, mutation="none")],
        random_state=7,
    )
    (motif,) = motifs_of(X, y, shift=4)
    assert motif.consensus == "CATGGTAC"
    assert motif.pwm.max(axis=1).min() > 0.95


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_no_motif_from_noise(seed):
    X, y = make_motif_data(300, 300, 40, [], random_state=seed)
    y = np.random.default_rng(seed).permutation(y)
    assert motifs_of(X, y) == []


def test_extract_motifs_checks_its_sequences():
    X, y = make_motif_data(30, 30, 20, [PlantedMotif("GATT", 5)], random_state=0)
    poim = compute_poim(WDKernelSVC(degree=4).fit(X, y), 3)
    with pytest.raises(ValueError, match="together"):
        extract_motifs(poim, sequences=X)
    with pytest.raises(
        ValueError,
        match="sequences has records of length 19 but the POIM is for length 20",
    ):
        extract_motifs(poim, sequences=X[:, 1:], labels=y)
    with pytest.raises(ValueError, match="one per sequence"):
        extract_motifs(poim, sequences=X, labels=y[1:])
    with pytest.raises(ValueError, match="0 .negative. or 1"):
        extract_motifs(poim, sequences=X, labels=y + 1)
    with pytest.raises(ValueError, match="alpha"):
        extract_motifs(poim, sequences=X, labels=y, alpha=0)


# --------------------------------------------------------------------------- #
# the command line
# --------------------------------------------------------------------------- #
def test_motifs_command_with_sequences(tmp_path, capsys):
    X, y = make_motif_data(
        300, 300, 40, [PlantedMotif("GGCCGTAAA", 8, spread=1)], random_state=3
    )
    pos, neg = tmp_path / "p.fa", tmp_path / "n.fa"
    write_fasta(pos, [f"p{i}" for i in range(300)], X[y == 1])
    write_fasta(neg, [f"n{i}" for i in range(300)], X[y == 0])
    poim_path = tmp_path / "p.npz"
    compute_poim(WDKernelSVC(degree=10).fit(X, y), 5).save(poim_path)
    out, sites = tmp_path / "m.meme", tmp_path / "sites.tsv"
    args = ["motifs", str(poim_path), "--pos", str(pos), "--neg", str(neg)]
    assert main([*args, "-o", str(out), "--sites", str(sites), "--quiet"]) == 0
    (motif,) = read_motifs(out)
    assert close(motif.consensus, "GGCCGTAAA") <= 1 and motif.q_value <= 0.05
    rows = [line.split("\t") for line in sites.read_text().splitlines()]
    assert rows[0] == ["sequence", "label", "motif", "start", "strand", "score"]
    assert len(rows) - 1 == sum(1 for r in rows[1:] if r[2] == "motif_1")
    assert sum(r[1] == "1" for r in rows[1:]) == motif.n_sites
    assert {r[0][0] + r[1] for r in rows[1:]} <= {"p1", "n0"}
    assert abs(np.median([int(r[3]) for r in rows[1:] if r[1] == "1"]) - 8) <= 1
    capsys.readouterr()
    # a motif file is reused as it is: no extraction
    assert main(["motifs", str(out), "--quiet"]) == 0
    assert motif.consensus in capsys.readouterr().out
    # sites need sequences; sequences go with POIMs
    assert main([*args[:2], "-o", str(out), "--sites", str(sites)]) == 2
    assert main(["motifs", str(out), "--pos", str(pos), "--neg", str(neg)]) == 2
    assert main(["motifs", str(poim_path)]) == 2
    assert "required" in capsys.readouterr().err
