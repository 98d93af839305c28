"""Motifs of both classes, and degenerate motifs refined against the other class."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import hypergeom

from poimkit import GkmSVC, WDKernelSVC, compute_poim, extract_motifs
from poimkit.datasets import PlantedMotif, make_motif_data
from poimkit.motifs import contrast as C
from poimkit.motifs.discovery import completes
from poimkit.motifs.scan import PAD, best_windows, padded

from ..naive import reverse_complement_text
from .test_motif_sites import close

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"


# --------------------------------------------------------------------------- #
# the pieces, against brute force
# --------------------------------------------------------------------------- #
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    width=st.integers(1, 6),
    n_fwd=st.integers(0, 5),
    n_rc=st.integers(0, 5),
)
def test_best_windows_by_brute_force(seed, width, n_fwd, n_rc):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(width, width + 8, size=6)
    X = padded([rng.integers(0, 4, n).astype(np.uint8) for n in lengths])
    span = X.shape[1] - width + 1
    allowed = rng.integers(0, span, size=n_fwd)
    allowed_rc = rng.integers(0, span, size=n_rc)
    lods = np.round(rng.normal(size=(width, 4)), 2)
    score, best, starts = best_windows(X, allowed, allowed_rc, lods)
    rc = lods[::-1, ::-1]
    for r in range(X.shape[0]):
        options = []  # (score, index)
        for i, s in enumerate(starts):
            window = X[r, s : s + width]
            if (window >= PAD).any():
                continue
            table = lods if i < allowed.size else rc
            options.append((table[np.arange(width), window].sum(), i))
        if not options:
            assert score[r] == -np.inf and best[r] == -1
            continue
        top = max(v for v, _ in options)
        assert score[r] == pytest.approx(top, abs=1e-9)
        # the window named scores the top (equal sums may differ in the last bit)
        assert dict((i, v) for v, i in options)[best[r]] == pytest.approx(top, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_contrast_threshold_by_brute_force(seed):
    rng = np.random.default_rng(seed)
    scores = np.round(rng.normal(0.5, 1, size=60), 1)
    contrast = np.round(rng.normal(0.0, 1, size=80), 1)
    got = C.contrast_threshold(scores, contrast)
    best = None  # (log p, threshold)
    for t in np.unique(np.concatenate([scores, contrast])):
        a, b = int((scores >= t).sum()), int((contrast >= t).sum())
        if a < C.MIN_SITES or b > C.MAX_CONTRAST_SITES * contrast.size:
            continue
        log_p = hypergeom.logsf(a - 1, 140, 60, a + b)
        if best is None or log_p < best[0] - 1e-12:
            best = (log_p, t)
    if best is None:
        assert got is None
    else:
        assert got == pytest.approx(best[1], abs=1e-6)


def test_best_windows_ties_go_to_the_given_strand():
    X = np.array([[0, 3, 0, 3]], dtype=np.uint8)  # ATAT: its own reverse complement
    lods = np.array([[1.0, 0, 0, 0], [0, 0, 0, 1.0]])  # AT
    score, best, starts = best_windows(X, np.array([2]), np.array([0]), lods)
    assert score[0] == 2.0 and best[0] == 0 and starts[best[0]] == 2


def test_completes_finds_the_seed_in_a_degenerate_motif():
    lods = np.full((6, 4), -1.0)
    for c, letter in enumerate([0, 3, 3, 0, 2, 2]):  # ATTAGG
        lods[c, letter] = 1.0
    motif = C.SiteMotif(np.full((6, 4), 0.25), lods, 4.0, np.arange(3), np.arange(3))
    assert completes("ATTAGG", motif)
    assert completes("CCTAAT", motif)  # the other strand
    assert completes("TTAGGC", motif)  # hangs over the edge by one letter
    assert not completes("GCGCGC", motif)


# --------------------------------------------------------------------------- #
# planted truths and the null
# --------------------------------------------------------------------------- #
def test_motif_of_each_class_positional():
    X, y = make_motif_data(
        500,
        500,
        60,
        [
            PlantedMotif("GTCCAAG", 15, spread=1),
            PlantedMotif("CATGCGA", 42, spread=1, in_positives=0, in_negatives=1),
        ],
        random_state=3,
    )
    poim = compute_poim(WDKernelSVC(degree=20).fit(X, y), 6)
    motifs = extract_motifs(poim, 3, sequences=X, labels=y)
    by_label = {m.label: m for m in motifs}
    assert len(motifs) == 2 and set(by_label) == {0, 1}
    assert close(by_label[1].consensus, "GTCCAAG") <= 1
    assert close(by_label[0].consensus, "CATGCGA") <= 1
    assert by_label[0].importance < 0 < by_label[1].importance
    assert by_label[0].frac_negative > 2 * by_label[0].frac_positive
    assert by_label[0].position == pytest.approx(42, abs=2)
    assert [m.name for m in motifs] == ["motif_1", "motif_2"]
    assert motifs[0].label == 1  # the positives' motifs first


def _short_motifs(labels_shuffled: bool):
    planted = [
        PlantedMotif(m, (1, 94), mutation=0.3, reverse_complement=0.5, in_positives=0.5)
        for m in ("TAATTGA", "ACAATGG")
    ]
    X, y = make_motif_data(500, 500, 100, planted, random_state=8)
    if labels_shuffled:
        y = np.random.default_rng(0).permutation(y)
    model = GkmSVC(l=8, k=5, reverse_complement=True).fit(X, y)
    poim = compute_poim(model, 7)
    return extract_motifs(poim, 3, sequences=X, labels=y)


def test_short_degenerate_motifs_anywhere():
    motifs = _short_motifs(False)
    positives = [m.consensus for m in motifs if m.label == 1]
    for truth in ("TAATTGA", "ACAATGG"):
        assert (
            min(
                min(close(found, truth), close(found, reverse_complement_text(truth)))
                for found in positives
            )
            <= 1
        ), f"{truth} not in {positives}"
    assert all(np.isnan(m.position) for m in motifs)


def test_no_motif_on_shuffled_labels():
    assert _short_motifs(True) == []


# --------------------------------------------------------------------------- #
# real data: Nanog ChIP-seq (../shared/data/nanog)
# --------------------------------------------------------------------------- #
@pytest.mark.skipif(
    not (SHARED / "nanog").exists(), reason="needs ../shared/data/nanog"
)
def test_nanog_reports_the_homeodomain_and_sox_motifs():
    from poimkit.io import read_labeled

    folder = SHARED / "nanog"
    _, X, y = read_labeled(
        pos=str(folder / "positives_train.fa"),
        neg=str(folder / "negatives_train.fa"),
        any_length=True,
    )
    model = GkmSVC(l=11, k=7, reverse_complement=True, C=1.0).fit(X, y)
    poim = compute_poim(model, 7)
    motifs = extract_motifs(poim, 3, sequences=X, labels=np.asarray(y))
    positives = [m for m in motifs if m.label == 1]
    # SOX: ACAAWG (CWTTGT on the other strand); homeodomain: TAAT (ATTA)
    for truth in ("ACAAAG", "TTTAATG"):
        assert any(
            min(close(m.consensus, t) for t in (truth, reverse_complement_text(truth)))
            <= 1
            for m in positives
        ), (truth, positives)
    for m in positives:
        assert m.frac_positive > 2 * m.frac_negative and m.q_value <= 0.05


@settings(max_examples=200, deadline=None)
@given(
    total=st.integers(2, 5000),
    marked=st.floats(0, 1),
    drawn=st.floats(0, 1),
    at=st.floats(0, 1),
)
def test_hypergeometric_tail_matches_scipy(total, marked, drawn, at):
    from poimkit.motifs._hypergeom import log_upper_tail

    K, n = round(marked * total), round(drawn * total)
    low, high = max(0, n - (total - K)), min(K, n)
    k = low + round(at * (high - low))
    got = log_upper_tail(np.array([k]), total, K, np.array([n]))[0]
    want = hypergeom.logsf(k - 1, total, K, n)
    assert got == pytest.approx(want, rel=1e-8, abs=1e-10)
