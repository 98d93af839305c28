"""A POIM read off attributions in context (poimkit.explain.kmer_poim)."""

import numpy as np
import pytest

from poimkit import extract_motifs
from poimkit.alphabet import encode, kmer_index, kmer_string
from poimkit.background import MarkovBackground
from poimkit.datasets import random_dna
from poimkit.errors import InputError
from poimkit.explain.attributions import Attributions
from poimkit.explain.ism import ism_attributions
from poimkit.explain.kmer_poim import attribution_poim
from poimkit.poim.sampled import sampled_poim

A, B, GAP = "GATTA", "CCTGG", 6  # B starts GAP letters after A's end


def found_of(seqs, contrib):
    """Attributions with the given contributions at the records' own letters."""
    width = max(s.size for s in seqs)
    ohe = np.zeros((len(seqs), 4, width))
    for r, s in enumerate(seqs):
        ohe[r, s, np.arange(s.size)] = 1.0
    lengths = np.array([s.size for s in seqs])
    return Attributions(ohe * contrib[:, None, :], ohe, lengths)


def test_attribution_poim_is_the_clustered_mean_of_summed_contributions():
    rng = np.random.default_rng(3)
    seqs = [random_dna(1, n, random_state=s)[0] for s, n in enumerate((14, 9, 14, 12))]
    seqs = [np.where(rng.random(s.size) < 0.5, 0, s).astype(np.uint8) for s in seqs]
    contrib = np.zeros((4, 14))
    for r, s in enumerate(seqs):
        contrib[r, : s.size] = rng.normal(size=s.size)
    poim = attribution_poim(found_of(seqs, contrib), 3)
    assert poim.position_free and poim.metadata["method"] == "attributions"
    for l in (1, 2, 3):
        assert poim.q(l).shape == (14 - l + 1, 4**l)
        for z in range(4**l):
            per_record = []
            for r, s in enumerate(seqs):
                hits = [
                    contrib[r, j : j + l].sum()
                    for j in range(s.size - l + 1)
                    if kmer_index("".join("ACGT"[c] for c in s[j : j + l])) == z
                ]
                if hits:
                    per_record.append((len(hits), sum(hits)))
            q, se = poim.q(l)[:, z], poim.stderr[l - 1][:, z]
            assert np.all(q == q[0]) and (np.all(se == se[0]) or np.isnan(se).all())
            if not per_record:
                assert q[0] == 0 and np.isnan(se[0])
                continue
            c = np.array([h[0] for h in per_record], float)
            v = np.array([h[1] for h in per_record])
            m = v.sum() / c.sum()
            assert q[0] == pytest.approx(m, abs=1e-12)
            g = len(per_record)
            if g < 2:
                assert np.isnan(se[0])
            else:
                want = np.sqrt(g / (g - 1) * ((v - m * c) ** 2).sum()) / c.sum()
                assert se[0] == pytest.approx(want, rel=1e-9, abs=1e-12)


def pair_score(X):
    """1 where A is followed by B exactly GAP letters after A's end, else 0."""
    a, b = encode([A])[0], encode([B])[0]
    out = []
    for x in X:
        x = np.asarray(x)
        n = x.size
        hit = any(
            np.array_equal(x[i : i + 5], a)
            and i + 5 + GAP + 5 <= n
            and np.array_equal(x[i + 5 + GAP : i + 10 + GAP], b)
            for i in range(n - 4)
        )
        out.append(float(hit))
    return np.array(out)


class Pair:
    decision_function = staticmethod(pair_score)
    length_ = 30


def pair_records(n, rng):
    """Half the records hold the pair at its spacing, half A or B alone."""
    X = random_dna(n, 30, random_state=rng)
    a, b = encode([A])[0], encode([B])[0]
    y = np.zeros(n, dtype=np.int64)
    for r in range(n):
        at = rng.integers(0, 30 - 16 + 1)
        if r % 2 == 0:
            X[r, at : at + 5], X[r, at + 5 + GAP : at + 10 + GAP] = a, b
            y[r] = 1
        elif r % 4 == 1:
            X[r, at : at + 5] = a
        else:
            X[r, at + 5 + GAP : at + 10 + GAP] = b
    return X, y


def test_a_pair_that_acts_only_together_is_seen_in_context_not_in_background():
    rng = np.random.default_rng(0)
    X, y = pair_records(120, rng)
    poim = attribution_poim(ism_attributions(Pair(), X), 5)
    anywhere = poim.anywhere(5)
    top = np.argsort(-anywhere)[:2]
    assert {kmer_string(int(z), 5) for z in top} == {A, B}
    # a background POIM sees neither: the partner is (almost) never in place
    background = sampled_poim(
        pair_score,
        5,
        MarkovBackground.uniform(30),
        n_samples=2,
        random_state=0,
        windows="centre",
    )
    assert abs(background.anywhere(5)[kmer_index(A)]) < 0.05
    motifs = extract_motifs(poim, max_motifs=3, sequences=X, labels=y, random_state=0)
    consensi = {m.consensus for m in motifs if m.label == 1}
    assert any(A in c or c in A for c in consensi)
    assert any(B in c or c in B for c in consensi)


def test_attribution_poim_refuses_orders_beyond_the_shortest_record():
    seqs = [random_dna(1, n, random_state=n)[0] for n in (6, 4)]
    found = found_of(seqs, np.zeros((2, 6)))
    with pytest.raises(InputError, match="shortest record's length \\(4\\)"):
        attribution_poim(found, 5)
    with pytest.raises(InputError, match="max_order"):
        attribution_poim(found, 0)


def test_min_enrichment_decides_whether_a_weakly_enriched_motif_is_reported():
    """Sites in 75 % of positives and 50 % of negatives: 1.5 times as common."""
    from poimkit.alphabet import kmer_indices

    site = "GATTACA"
    rng = np.random.default_rng(5)
    X = random_dna(600, 30, random_state=rng)
    y = np.repeat([1, 0], 300)
    planted = np.where(y == 1, rng.random(600) < 0.75, rng.random(600) < 0.5)
    for r in np.flatnonzero(planted):
        at = rng.integers(0, 24)
        X[r, at : at + 7] = encode([site])[0]

    class Site:
        length_ = 30

        @staticmethod
        def decision_function(X):
            keys = kmer_indices(np.asarray(X, dtype=np.uint8), 7)
            return (keys == kmer_index(site)).any(axis=1).astype(float)

    poim = attribution_poim(ism_attributions(Site(), X[planted][:60]), 5)
    kwargs = dict(sequences=X, labels=y, random_state=0)
    weak = extract_motifs(poim, min_enrichment=1.25, **kwargs)
    assert [m.label for m in weak if site[1:6] in m.consensus] == [1]
    assert not [m for m in extract_motifs(poim, **kwargs) if site[1:6] in m.consensus]
    with pytest.raises(InputError, match="min_enrichment"):
        extract_motifs(poim, min_enrichment=0.5, **kwargs)


def test_motifs_command_states_the_library_default_of_min_enrichment():
    import argparse

    from poimkit.cli.parser import build_parser
    from poimkit.motifs.extract import MIN_ENRICHMENT

    sub = next(
        a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)
    )
    option = next(
        a
        for a in sub.choices["motifs"]._actions
        if "--min-enrichment" in a.option_strings
    )
    assert f"(default {MIN_ENRICHMENT:g})" in option.help
