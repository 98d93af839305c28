"""The motif model: features against a brute-force scan, fit, files, fidelity."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from poimkit import InputError, Motif
from poimkit.datasets import PlantedMotif, make_motif_data
from poimkit.motifs.features import (
    motif_features,
    placements,
    reads_both_strands,
)
from poimkit.motifs.model import (
    MotifClassifier,
    MotifRegressor,
    fidelity,
    load_motif_model,
)
from poimkit.motifs.scan import Sites

from ..naive import motif_features_naive


def _motif(rng, width, position, spread, both):
    pwm = rng.dirichlet(np.ones(4), size=width)
    strands = np.array([1, -1] if both else [1], dtype=np.int8)
    sites = Sites(
        np.zeros(strands.size, np.int64),
        np.zeros(strands.size, np.int64),
        np.zeros(strands.size),
        strands,
    )
    return Motif(pwm, position, spread, n_sites=int(rng.integers(0, 50)), sites=sites)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    width=st.integers(2, 6),
    free=st.booleans(),
    both=st.booleans(),
    smoothing=st.sampled_from([0.0, 0.1, 0.5]),
)
def test_features_match_a_brute_force_scan(seed, width, free, both, smoothing):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(7, 15)).astype(np.uint8)
    position = np.nan if free else float(rng.integers(1, 12))
    motif = _motif(rng, width, position, float(rng.uniform(0, 2)), both)
    background = rng.dirichlet(np.ones(4) * 5)
    got = motif_features(X, [motif], background, smoothing=smoothing)[:, 0]
    assert_allclose(
        got, motif_features_naive(X, motif, background, smoothing), atol=1e-9
    )


def test_placements_of_a_positional_motif():
    motif = Motif(np.full((4, 4), 0.25), position=10.0, spread=1.0)
    allowed, allowed_rc = placements(motif, 30, reads_both_strands(motif))
    assert allowed.tolist() == list(range(6, 13)) and allowed_rc.size == 0
    free = Motif(np.full((4, 4), 0.25), position=np.nan, spread=np.nan)
    allowed, allowed_rc = placements(free, 30, reads_both_strands(free))
    assert allowed.tolist() == allowed_rc.tolist() == list(range(27))
    # a position-free motif whose sites lie on one strand is read on that one
    one = Sites(
        np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1), np.ones(1, np.int8)
    )
    assert not reads_both_strands(Motif(free.pwm, np.nan, np.nan, sites=one))


def _planted():
    X, y = make_motif_data(
        300, 300, 40, [PlantedMotif("GATTACA", 12, spread=1)], random_state=1
    )
    motif = Motif(np.eye(4)[[2, 0, 3, 3, 0, 1, 0]], 12.0, 1.0, n_sites=300)
    return X, y, motif


def test_classifier_ranks_a_planted_motif_and_round_trips(tmp_path):
    X, y, motif = _planted()
    model = MotifClassifier([motif]).fit(X, y)
    assert model.coef_[0] > 0
    from sklearn.metrics import roc_auc_score

    assert roc_auc_score(y, model.decision_function(X)) > 0.9
    path = tmp_path / "motif_model.npz"
    model.save(path)
    loaded = load_motif_model(path)
    assert isinstance(loaded, MotifClassifier)
    assert loaded.both_strands == [False]  # a positional motif on its strand
    assert_allclose(loaded.decision_function(X), model.decision_function(X))
    assert_allclose(loaded.predict_proba(X), model.predict_proba(X))
    assert (loaded.predict(X) == model.predict(X)).all()
    with np.load(path, allow_pickle=False) as f:  # no pickle inside
        assert "pwms" in f.files


def test_regressor_follows_the_motif_and_round_trips(tmp_path):
    X, y, motif = _planted()
    t = 2.0 * y + np.random.default_rng(0).normal(0, 0.3, y.size)
    model = MotifRegressor([motif]).fit(X, t)
    # one feature: the fit is a line through it, as correlated as the feature
    feature = model.transform(X)[:, 0]
    r = np.corrcoef(model.predict(X), t)[0, 1]
    assert r == pytest.approx(np.corrcoef(feature, t)[0, 1], abs=1e-9) and r > 0.8
    model.save(tmp_path / "r.npz")
    loaded = load_motif_model(tmp_path / "r.npz")
    assert isinstance(loaded, MotifRegressor)
    assert_allclose(loaded.predict(X), model.predict(X))


def test_motif_model_refuses_no_motifs_and_bad_files(tmp_path):
    X, y, _ = _planted()
    with pytest.raises(InputError, match="at least one motif"):
        MotifClassifier([]).fit(X, y)
    bad = tmp_path / "bad.npz"
    np.savez(bad, x=np.zeros(2))
    with pytest.raises(InputError):
        load_motif_model(bad)


def test_fidelity_is_the_share_of_the_ranking_kept():
    y = np.array([0, 1] * 50)
    f = y + np.random.default_rng(0).normal(0, 0.1, 100)
    assert fidelity(f, f, y) == pytest.approx(1.0)
    assert fidelity(f, -f, y) == pytest.approx(-1.0)
    t = np.arange(100.0)
    assert fidelity(t + 1, 2 * t, t) == pytest.approx(1.0)


def test_smoothing_is_chosen_and_helps_a_degenerate_motif(tmp_path):
    """Sites with one letter re-drawn, a PWM counted from a few variants only.

    Unsmoothed, a re-drawn letter the PWM never saw costs about 10 bits, so
    those sites rank among chance windows (as the demo's GATTACA did).
    """
    from sklearn.metrics import roc_auc_score

    X, y = make_motif_data(
        400, 400, 100, [PlantedMotif("GATTACA", 40, spread=10)], random_state=3
    )
    pwm = 0.9 * np.eye(4)[[2, 0, 3, 3, 0, 1, 0]]
    pwm[np.arange(7), [0, 1, 2, 0, 3, 2, 1]] += 0.1  # one variant letter seen
    motif = Motif(pwm, np.nan, np.nan, n_sites=1000)
    sharp = MotifClassifier([motif], smoothing=0.0).fit(X, y)
    chosen = MotifClassifier([motif]).fit(X, y)
    assert chosen.smoothing_ > 0 and sharp.smoothing_ == 0
    assert chosen.inner_score_ > sharp.inner_score_ + 0.05
    auc = roc_auc_score(y, chosen.decision_function(X))
    assert auc > roc_auc_score(y, sharp.decision_function(X)) + 0.05
    chosen.save(tmp_path / "m.npz")
    loaded = load_motif_model(tmp_path / "m.npz")
    assert loaded.smoothing_ == chosen.smoothing_ and loaded.length_ == 100
    assert_allclose(loaded.decision_function(X), chosen.decision_function(X))
    with pytest.raises(InputError, match="smoothing"):
        MotifClassifier([motif], smoothing=1.0).fit(X, y)


def test_effects_add_up_to_the_score():
    X, y, motif = _planted()
    model = MotifClassifier([motif, motif]).fit(X, y)
    intercept = model.decision_function(X) - model.terms(X).sum(axis=1)
    # the effects are the score minus one constant: c_0 in unstandardised units
    assert np.ptp(intercept) < 1e-9


def test_stack_adds_the_other_score_and_round_trips(tmp_path):
    """A stack's first feature is another model's score; saved beside it."""
    from sklearn.metrics import roc_auc_score

    from poimkit import WDKernelSVC, load_model
    from poimkit.motifs.stacked import StackedModel, load_stacked

    X, y, motif = _planted()
    svm = WDKernelSVC(degree=3, C=1.0).fit(X, y)
    out_of_fold = svm.decision_function(X) + np.random.default_rng(0).normal(
        0, 0.1, y.size
    )
    part = MotifClassifier([motif]).fit(X, y, scores=out_of_fold)
    assert part.transform(X, scores=out_of_fold).shape == (y.size, 2)
    with pytest.raises(InputError, match="scores"):
        part.decision_function(X)  # fitted with scores: needs them
    stack = StackedModel(svm, part)
    assert_allclose(
        stack.decision_function(X),
        part.decision_function(X, scores=svm.decision_function(X)),
    )
    assert roc_auc_score(y, stack.decision_function(X)) > 0.9
    svm.save(tmp_path / "model.npz")
    stack.save(tmp_path / "stack.npz")
    for loaded in (
        load_stacked(tmp_path / "stack.npz", load_model),
        load_model(tmp_path / "stack.npz"),
    ):
        assert isinstance(loaded, StackedModel)
        assert_allclose(loaded.decision_function(X), stack.decision_function(X))
    assert isinstance(load_model(tmp_path / "stack.npz").part, MotifClassifier)
    with pytest.raises(InputError, match="fitted with scores"):
        StackedModel(svm, MotifClassifier([motif]).fit(X, y))


def test_the_run_keeps_the_svm_unless_another_is_clearly_better():
    from poimkit.run.motif_model import choose_model

    y = np.array([0, 1] * 300)
    assert choose_model({"svm": 0.9, "motifs": 0.9, "stack": 0.9}, y) == "svm"
    # within one standard error of the best: still the SVM
    assert choose_model({"svm": 0.9, "motifs": 0.85, "stack": 0.905}, y) == "svm"
    assert choose_model({"svm": 0.8, "motifs": 0.7, "stack": 0.9}, y) == "stack"
    assert choose_model({"svm": 0.8, "motifs": 0.899, "stack": 0.9}, y) == "motifs"


def test_variant_effects_name_the_motif_that_changed(tmp_path):
    """Both sequences scored; the effect splits exactly into the motifs' terms."""
    from poimkit import load_model
    from poimkit.variants import variant_effects

    X, y, motif = _planted()
    other = Motif(np.eye(4)[[0, 0, 0, 0]], np.nan, np.nan, name="polyA", n_sites=50)
    motif.name = "gattaca"
    MotifClassifier([motif, other]).fit(X, y).save(tmp_path / "m.npz")
    model = load_model(tmp_path / "m.npz")
    ref = X[y == 1][:20].copy()
    alt = ref.copy()
    alt[:, 11:18] = 1  # the planted site (1-based 12, spread 1) wiped out
    fx = variant_effects(model, ref, alt)
    assert_allclose(
        fx.effect, model.decision_function(alt) - model.decision_function(ref)
    )
    assert_allclose(fx.term_change.sum(axis=1), fx.effect, atol=1e-9)
    assert (fx.effect < 0).mean() > 0.8
    named = fx.top_strings()
    assert sum(t.startswith("gattaca:-") for t in named) >= 16


def test_a_position_free_motif_is_read_where_its_sites_lie():
    """Aligned sequences: its sites cluster, so the inner CV reads it only there."""
    from poimkit.motifs.features import localised

    X, y = make_motif_data(
        300, 300, 80, [PlantedMotif("GATTACA", 30, spread=2)], random_state=5
    )
    rows = np.flatnonzero(y == 1)
    starts = np.random.default_rng(0).normal(29, 2, rows.size).round().astype(np.int64)
    sites = Sites(rows, starts, np.zeros(rows.size))
    pwm = np.eye(4)[[2, 0, 3, 3, 0, 1, 0]] * 0.85 + 0.0375
    free = Motif(pwm, np.nan, np.nan, n_sites=rows.size, sites=sites)
    placed = localised(free, 80)
    assert placed.position == pytest.approx(starts.mean() + 1)
    assert placed.spread == pytest.approx(starts.std())
    assert localised(placed, 80) is None  # positional already
    assert localised(free, 18) is None  # +- 3 SDs cover the whole sequence
    model = MotifClassifier([free]).fit(X, y)
    assert model.motifs_[0].position == placed.position
    anywhere = MotifClassifier([free]).fit([x for x in X] + [X[0][:50]], [*y, 0])
    assert np.isnan(anywhere.motifs_[0].position)  # lengths differ: not placed


def test_a_site_shifting_the_target_is_read_as_a_site_chance(monkeypatch):
    """A site adds a fixed amount: the site chance fits, the raw score less so."""
    import poimkit.motifs.model as model_module

    X, y = make_motif_data(
        600, 600, 60, [PlantedMotif("GATTACA", 25, spread=2)], random_state=7
    )
    t = 2.0 * y + np.random.default_rng(1).normal(0, 0.5, y.size)
    pwm = 0.85 * np.eye(4)[[2, 0, 3, 3, 0, 1, 0]] + 0.0375
    motif = Motif(pwm, 25.0, 2.0, n_sites=600)
    shaped = MotifRegressor([motif]).fit(X, t)
    monkeypatch.setattr(model_module, "THRESHOLDS", (None,))
    raw = MotifRegressor([motif]).fit(X, t)
    assert shaped.threshold_ is not None and raw.threshold_ is None
    assert shaped.inner_score_ > raw.inner_score_ + 0.05
    F = shaped.transform(X)
    assert F.min() >= 0 and F.max() <= 1  # chances


def test_site_probability_is_the_posterior_of_a_site():
    from poimkit.motifs.features import site_probability

    scores = np.array([[0.0, 2.0, -60.0, 90.0]])
    got = site_probability(scores, np.full(4, 2.0))[0]
    # prior odds 2^-2, likelihood ratio 2^score: posterior odds 2^(score - 2)
    assert_allclose(got[:2], [0.2, 0.5])
    assert got[2] == pytest.approx(0, abs=1e-15) and got[3] == pytest.approx(1)


def test_score_and_variants_commands_take_a_motif_model(tmp_path, capsys):
    """``poimkit score`` and ``poimkit variants`` read motif_model.npz as a model."""
    from poimkit import decode
    from poimkit.cli import main
    from poimkit.io import write_fasta

    X, y, motif = _planted()
    motif.name = "gattaca"
    model = MotifClassifier([motif]).fit(X, y)
    path = tmp_path / "motif_model.npz"
    model.save(path)
    fasta = tmp_path / "x.fa"
    write_fasta(fasta, [f"s{i}" for i in range(20)], decode(X[:20]))
    scores = tmp_path / "scores.tsv"
    assert main(["score", str(path), str(fasta), "-o", str(scores), "--quiet"]) == 0
    lines = scores.read_text().splitlines()
    assert lines[0] == "id\tscore\tprobability\tpredicted" and len(lines) == 21
    got = np.array([float(line.split("\t")[1]) for line in lines[1:]])
    assert_allclose(got, model.decision_function(X[:20]), rtol=1e-9)
    p = np.array([float(line.split("\t")[2]) for line in lines[1:]])
    assert_allclose(p, model.predict_proba(X[:20])[:, 1], rtol=1e-5)  # log-odds
    ref = decode(X[y == 1][:1])[0]
    alt = ref[:11] + "CCCCCCC" + ref[18:]  # the site (1-based 12, spread 1) wiped
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(f"v1\t{ref}\t{alt}\n")
    out = tmp_path / "effects.tsv"
    assert main(["variants", str(path), "--pairs", str(pairs), "-o", str(out)]) == 0
    header, row = [line.split("\t") for line in out.read_text().splitlines()]
    row = dict(zip(header, row, strict=True))
    assert float(row["effect"]) < 0 and row["top_kmers"].startswith("gattaca:-")
    # sampled POIMs (before: an internal error naming LS-GKM's kernel_name)
    poim = tmp_path / "poim.npz"
    argv = ["poim", str(path), "--max-order", "2", "--samples", "50", "-o", str(poim)]
    assert main([*argv, "--quiet"]) == 0
    from poimkit.poim import Poim

    assert "MotifClassifier" in Poim.load(poim).metadata["exact"]


def test_a_wide_positional_window_is_narrowed_where_that_ranks_better():
    """A discovered spread that counts chance sites: the inner CV narrows it."""
    from sklearn.metrics import roc_auc_score

    from poimkit.motifs.features import narrowed

    X, y = make_motif_data(
        400, 400, 100, [PlantedMotif("GATTACA", 50, spread=1)], random_state=9
    )
    pwm = 0.85 * np.eye(4)[[2, 0, 3, 3, 0, 1, 0]] + 0.0375
    wide = Motif(pwm, 50.0, 12.0, n_sites=400)
    assert narrowed(wide, 0.25).spread == 3.0
    free = Motif(pwm, np.nan, np.nan)
    assert narrowed(free, 0.5) is free
    model = MotifClassifier([wide], both_strands=[False]).fit(X, y)
    assert model.motifs_[0].spread < wide.spread
    as_found = MotifClassifier([wide], both_strands=[False])
    as_found._placed = lambda codes: [[wide]]  # no narrowing to choose from
    as_found.fit(X, y)
    assert model.inner_score_ > as_found.inner_score_
    assert roc_auc_score(y, model.decision_function(X)) > roc_auc_score(
        y, as_found.decision_function(X)
    )


def test_a_run_without_final_motifs_falls_back_to_the_svm_figures():
    """The folds chose the motifs, the final model has none: the SVM's everything."""
    from poimkit import WDKernelSVR
    from poimkit.run.data import LabeledData
    from poimkit.run.motif_model import final_models
    from poimkit.run.options import RunOptions

    svm_predictions, motif_predictions = np.arange(4.0), np.ones(4)
    from poimkit.run.results import CVResult

    cv = CVResult(
        "pearson",
        {"cv_pearson": 0.9},
        predictions=motif_predictions,
        scores=svm_predictions,
        models={"svm": {"cv_pearson": 0.5}, "motifs": {"cv_pearson": 0.9}},
        chosen_model="motifs",
    )
    data = LabeledData([], np.zeros((4, 10), np.uint8), np.arange(4.0), [], 0)
    explained, stack, chosen = final_models(
        WDKernelSVR(), [], data, np.full(4, 0.25), cv, RunOptions()
    )
    assert (explained, stack, chosen) == (None, None, "svm")
    assert cv.chosen_model == "svm" and cv.figure() == 0.5
    assert cv.predictions is svm_predictions
