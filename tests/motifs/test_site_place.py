"""Where a positional motif's sites gather: planted starts among chance matches."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poimkit.motifs.scan import Sites, motif_of_sites
from poimkit.motifs.site_place import MIN_SITES, MIN_SPREAD, site_place


@settings(max_examples=40, deadline=None)
@given(
    centre=st.integers(15, 80),
    sd=st.floats(0.5, 4.0),
    planted=st.integers(150, 600),
    chance=st.floats(0.2, 1.5),
    seed=st.integers(0, 2**16),
)
def test_the_planted_place_is_found_among_chance_matches(
    centre, sd, planted, chance, seed
):
    """Chance starts (uniform, up to 1.5 times the planted ones) move the plain
    mean by up to ~15 letters; the fit stays within 1 letter of the planted
    mean and reports the planted spread, not the blur."""
    rng = np.random.default_rng(seed)
    n_starts = 95
    starts = np.clip(np.round(rng.normal(centre, sd, planted)), 0, n_starts - 1)
    noise = rng.integers(0, n_starts, int(chance * planted))
    both = np.r_[starts, noise].astype(np.int64)
    place, spread = site_place(both, n_starts)
    assert abs(place - starts.mean()) < 1.0
    assert abs(spread - max(starts.std(), MIN_SPREAD)) < 0.35 * sd + 0.5


@pytest.mark.parametrize("n", [10, 30, 300, 3000])
def test_chance_starts_alone_keep_the_plain_mean(n):
    """No part gathers: the mean and SD of every start, as before."""
    for seed in range(10):
        starts = np.random.default_rng(seed).integers(0, 95, n)
        place, spread = site_place(starts, 95)
        assert place == pytest.approx(starts.mean())
        assert spread == pytest.approx(max(starts.std(), MIN_SPREAD))


def test_few_sites_or_one_start_keep_the_plain_mean():
    assert np.isnan(site_place(np.array([], dtype=np.int64), 95)).all()
    assert site_place(np.array([10, 20]), 95) == (15.0, 5.0)
    assert site_place(np.array([4] * 20), 1) == (4.0, MIN_SPREAD)
    few = np.r_[[60] * (MIN_SITES - 3), 0, 90]  # would gather, but too few
    assert site_place(few, 95) == (pytest.approx(few.mean()), pytest.approx(few.std()))


def test_a_reported_motif_has_the_place_of_its_gathered_sites():
    """`motif_of_sites` reports the place that gathers (1-based), not the blur."""
    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, (600, 100)).astype(np.uint8)
    starts = np.r_[rng.integers(66, 69, 300), rng.integers(0, 95, 300)]
    sites = Sites(rows=np.arange(600), starts=starts, scores=np.zeros(600))
    motif = motif_of_sites(X, sites, 6, False)
    assert abs(starts.mean() + 1 - motif.position) > 10  # the blur it replaced
    assert motif.position == pytest.approx(68.0, abs=0.3)
    assert motif.spread < 1.5
    anywhere = motif_of_sites(X, sites, 6, True)
    assert np.isnan(anywhere.position) and np.isnan(anywhere.spread)
