"""Known-motif enrichment: the site rule, the test, the run's table and report."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poimkit.motifs.enrichment import (
    fisher_greater,
    has_site,
    known_enrichment,
    mark_matches,
    site_rule,
)
from poimkit.motifs.evidence import enrichment_p_value, q_values
from poimkit.motifs.motif import Motif
from poimkit.motifs.scan import best_windows, padded


def _motif(rng, width, name="m"):
    pwm = rng.dirichlet(np.full(4, 0.3), size=width)
    return Motif(pwm, 0.0, 0.0, name=name, n_sites=int(rng.integers(0, 40)))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), width=st.integers(1, 9))
def test_has_site_is_the_best_window_reaching_the_threshold(seed, width):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, 30, size=12)
    X = padded([rng.integers(0, 4, n).astype(np.uint8) for n in lengths])
    motif = _motif(rng, width)
    background = rng.dirichlet(np.full(4, 5.0))
    lods, threshold, starts = site_rule(motif, background, X)
    expected = np.zeros(X.shape[0], dtype=bool)
    if starts.size:
        score, _, _ = best_windows(X, starts, starts, lods)
        expected = score >= threshold
    assert (has_site(motif, background, X) == expected).all()


def test_the_threshold_gives_about_the_chance_share_of_sites():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 4, size=(4000, 100)).astype(np.uint8)
    # a degenerate motif: scores fine-grained enough for the threshold's chance
    # to come close to p (a sharp one's steps keep it far below)
    motif = Motif(rng.dirichlet(np.ones(4), size=12), 0, 0, name="m", n_sites=20)
    share = has_site(motif, np.full(4, 0.25), X).mean()
    assert 0.03 < share <= 0.06  # SITE_FPR 0.05 per record, chance alone


def test_fisher_greater_is_fishers_exact_test():
    rng = np.random.default_rng(2)
    a, b = rng.integers(0, 30, 20), rng.integers(0, 30, 20)
    p = fisher_greater(a, 30, b, 40)
    expected = [
        enrichment_p_value(int(x), 30, int(y), 40) for x, y in zip(a, b, strict=True)
    ]
    assert p == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_a_planted_motif_is_the_top_row_and_shuffled_labels_find_nothing():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, size=(600, 60)).astype(np.uint8)
    y = np.r_[np.ones(300), np.zeros(300)].astype(int)
    site = [3, 2, 0, 1, 3, 1, 0]  # TGACTCA
    X[:200, 20:27] = site
    known = [_motif(rng, int(rng.integers(5, 12)), f"M{i} decoy") for i in range(60)]
    known.insert(17, Motif(np.eye(4)[site] * 0.94 + 0.015, 0, 0, name="MA1 AP1"))
    found = known_enrichment(known, X, y, np.full(4, 0.25))
    top = found.rows(1)[0]
    assert (top["id"], top["name"]) == ("MA1", "AP1")
    assert top["q_value"] < 1e-10 and top["positives"] > 0.6
    assert found.q_values == pytest.approx(np.sort(found.q_values))
    assert found.q_values == pytest.approx(q_values(found.p_values))
    shuffled = known_enrichment(known, X, rng.permutation(y), np.full(4, 0.25))
    assert shuffled.n_enriched(0.05) == 0


def test_found_motifs_are_named_beside_the_known_ones_they_match():
    rng = np.random.default_rng(4)
    X = rng.integers(0, 4, size=(100, 40)).astype(np.uint8)
    y = np.r_[np.ones(50), np.zeros(50)].astype(int)
    known = [_motif(rng, 8, f"M{i} x") for i in range(40)]
    found = Motif(known[5].pwm.copy(), 0, 0, name="motif_1")
    marked = mark_matches(known_enrichment(known, X, y, np.full(4, 0.25)), [found])
    named = {row["id"]: row["matches"] for row in marked.rows()}
    assert named["M5"] == ["motif_1"]
    assert sum(bool(m) for m in named.values()) <= 3


def test_a_peak_run_tests_known_motifs(tmp_path):
    from dataclasses import replace

    from poimkit.datasets import write_synthetic_genome
    from poimkit.motifs.formats import write_motifs
    from poimkit.run import RunOptions, run_pipeline
    from poimkit.run.genome import PeakSource

    g = write_synthetic_genome(tmp_path / "g", motif="TGACTCA", n_peaks=120, seed=7)
    rng = np.random.default_rng(5)
    known = [_motif(rng, 8, f"MX{i}.1") for i in range(30)]
    known.append(
        Motif(np.eye(4)[[3, 2, 0, 1, 3, 1, 0]] * 0.9 + 0.025, 0, 0, name="MA9.1")
    )
    path = tmp_path / "known.meme"
    write_motifs(path, known)
    options = RunOptions(kernel="gkm", grid=False, C=1.0, cv=2, max_order=3)
    options = replace(options, max_motifs=1, known=str(path))
    out = tmp_path / "out"
    source = PeakSource(str(g.peaks), str(g.genome), width=100)
    summary = run_pipeline(out, options=options, progress=False, peaks=source)
    lines = (out / "known_motifs.tsv").read_text().splitlines()
    assert lines[0].split("\t")[:7] == [
        "id",
        "name",
        "positives",
        "negatives",
        "odds_ratio",
        "p_value",
        "q_value",
    ]
    assert len(lines) == 1 + len(known)
    assert lines[1].split("\t")[:2] == ["MA9.1", "MA9.1"]  # a file's names: ids
    part = summary.known_motifs
    assert part["n_tested"] == len(known) and part["n_enriched"] >= 1
    assert part["top"][0]["q_value"] < 1e-5
    page = (out / "report.html").read_text()
    assert "Known motifs in the positives" in page and "logo of MA9.1 MA9.1" in page
    # the found motifs were compared with the same known motifs
    assert all("matches" in m for m in summary.motifs)


def test_known_jaspar_without_pyjaspar_exits_2_before_training(
    tmp_path, capsys, monkeypatch
):
    from poimkit.cli import main

    fasta = tmp_path / "p.fa"
    fasta.write_text(">a\nACGTACGTAC\n")
    monkeypatch.setitem(__import__("sys").modules, "pyjaspar", None)
    code = main(
        ["run", "--pos", str(fasta), "--neg", str(fasta), "--known", "jaspar"]
        + ["-o", str(tmp_path / "out"), "--quiet"]
    )
    err = capsys.readouterr().err
    assert code == 2 and "pip install pyjaspar" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()
