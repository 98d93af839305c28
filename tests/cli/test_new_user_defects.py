"""Defects a new user found in the newest commands (issue 55, part 3), one test each."""

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from poimkit.cli import main
from poimkit.variants.scoring import _calls


def bh_called(k: int, p: float, m: int, q: float) -> bool:
    """Benjamini-Hochberg: do k variants at p-value p among m reach q?"""
    return p * m / k <= q


def test_calls_hint_names_the_count_that_reaches_q():
    """'needs N or more' must be the smallest N that Benjamini-Hochberg calls."""
    null = SimpleNamespace(effects=np.zeros(99), source="random windows")
    for m in (301, 310, 1000, 1234):
        scores = SimpleNamespace(q=np.ones(m))
        text = _calls(scores, 0.05, {False: null})
        needed = int(text.split(" needs ")[1].split(" or more")[0])
        assert bh_called(needed, 0.01, m, 0.05), (m, needed)
        assert not bh_called(needed - 1, 0.01, m, 0.05), (m, needed)


def test_max_motifs_help_says_it_counts_per_class(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "most motifs to report of each class" in help_text


def test_a_poim_says_what_it_holds():
    from poimkit.background import MarkovBackground
    from poimkit.poim import Poim, observed_poim

    exact = Poim([np.zeros((6, 4))], MarkovBackground.uniform(6), {"method": "exact"})
    assert repr(exact).startswith("Poim(k-mers of length 1..1 on 6 letters, exact, ")
    sampled = observed_poim(lambda X: X[:, 0], 2, MarkovBackground.uniform(6), 50, 0)
    assert "sampled, 50 samples, with errors" in repr(sampled)


def test_an_unknown_motif_source_gets_the_command_line_way(tmp_path, capsys):
    genome = tmp_path / "g.fa"
    genome.write_text(">chr1\nACGT\n")
    out = tmp_path / "hits.bed"
    assert main(["scan", "hocomoco", "--genome", str(genome), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "'hocomoco' is neither a motif file nor a collection" in err
    assert "format=" not in err
    odd = tmp_path / "motifs.txt"
    odd.write_text("MEME version 4\n")
    assert main(["scan", str(odd), "--genome", str(genome), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "rename the file to end in .meme" in err and "format=" not in err


def test_a_truncated_bgzip_genome_is_named_with_exit_2(tmp_path, capsys):
    from Bio import bgzf

    from poimkit.datasets import write_synthetic_genome

    g = write_synthetic_genome(tmp_path / "g", n_peaks=20, seed=1)
    packed = tmp_path / "genome.fa.gz"
    with bgzf.BgzfWriter(str(packed), "wb") as handle:
        handle.write(g.genome.read_bytes())
    cut = tmp_path / "cut.fa.gz"
    cut.write_bytes(packed.read_bytes()[: packed.stat().st_size * 3 // 4])
    args = [
        "run",
        "--bed",
        str(g.peaks),
        "--genome",
        str(cut),
        "-o",
        str(tmp_path / "o"),
    ]
    assert main([*args, "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(cut) in err[0]
    assert "not a complete bgzip file" in err[0]
    assert not (tmp_path / "o").exists()


def test_an_internal_error_says_how_to_see_its_traceback(monkeypatch, capsys):
    import sys

    cli = sys.modules["poimkit.cli.main"]  # the module (the package exports main)

    def broken(args):
        raise ZeroDivisionError("planted")

    monkeypatch.setattr(cli, "_command", lambda name: broken)
    monkeypatch.delenv("POIMKIT_DEBUG", raising=False)
    assert main(["scan", "x.meme", "--genome", "g.fa", "-o", "h.bed"]) == 1
    err = capsys.readouterr().err
    assert "ZeroDivisionError: planted" in err and "POIMKIT_DEBUG=1" in err
    assert "Traceback" not in err
    monkeypatch.setenv("POIMKIT_DEBUG", "1")
    assert main(["scan", "x.meme", "--genome", "g.fa", "-o", "h.bed"]) == 1
    assert "Traceback" in capsys.readouterr().err


def test_gc_alone_is_measured_in_the_runs_folds():
    """The GC-only baseline, against a direct computation on a GC-shifted set."""
    from sklearn.metrics import roc_auc_score

    from poimkit.run.gc_baseline import gc_baseline, gc_fractions

    rng = np.random.default_rng(3)
    rich = rng.choice(4, size=(100, 50), p=[0.2, 0.3, 0.3, 0.2]).astype(np.uint8)
    poor = rng.choice(4, size=(100, 50), p=[0.3, 0.2, 0.2, 0.3]).astype(np.uint8)
    X, y = np.vstack([poor, rich]), np.r_[np.ones(100), np.zeros(100)].astype(bool)
    folds = [
        (np.setdiff1d(np.arange(200), t), t)
        for t in np.array_split(rng.permutation(200), 4)
    ]
    found = gc_baseline(X, y, folds)
    gc = gc_fractions(X)
    expected = [roc_auc_score(y[test], -gc[test]) for _, test in folds]  # poor = pos
    assert found["gc_cv_auc_folds"] == [round(a, 6) for a in expected]
    assert found["gc_cv_auc"] > 0.85
    ragged = np.empty(2, dtype=object)
    ragged[:] = [np.array([1, 2, 0], np.uint8), np.array([3], np.uint8)]
    assert gc_fractions(ragged).tolist() == [2 / 3, 0.0]


def test_table_logos_keep_their_height_and_aspect():
    """Logos in tables were shrunk by the table layout, long ones squashed."""
    from poimkit.run.report.html import STYLE

    rule = STYLE.split("td img {", 1)[1].split("}", 1)[0]
    assert "max-width: none" in rule and "height: 4.5rem" in rule
    assert "width: auto" in rule


def test_scored_variants_is_public_and_documented():
    from poimkit.variants import ScoredVariants, score_variants

    assert ScoredVariants.__module__ == "poimkit.variants.scoring"
    assert "`score_variants`" in ScoredVariants.__doc__ and callable(score_variants)
    api = (Path(__file__).resolve().parents[2] / "docs" / "api.rst").read_text()
    assert "   ScoredVariants\n" in api


@pytest.mark.parametrize(
    ("chosen", "words"),
    [
        ("svm", "here no other model was, and the run kept the SVM."),
        ("motifs", "here the motif model was, and the run kept it."),
        ("stack", "here the stack was, and the run kept it."),
    ],
)
def test_the_report_says_plainly_which_model_the_run_kept(chosen, words):
    """Was "(here it did)", which read as the opposite of what happened (18)."""
    from types import SimpleNamespace

    from poimkit.run.report.models import fidelity_sentence
    from poimkit.run.results import CVResult

    summary = SimpleNamespace(
        family="gkm",
        chosen_model=chosen,
        cv=CVResult(models={"svm": {"cv_auc": 0.9}}, chosen_model=chosen),
        motif_model={
            "fidelity": 0.8,
            "coefficients": [0.5, 0.2],
            "cv_auc": 0.82,
            "stack_cv_auc": 0.91,
        },
    )
    sentence = fidelity_sentence(summary)
    assert sentence.endswith(words + "</p>")
    assert "here it did" not in sentence


def test_the_reliability_diagram_bins_a_small_set_coarsely():
    """Ten bins of 6 sequences zig-zagged (18): at least 30 per bin by default."""
    import matplotlib.pyplot as plt

    from poimkit.plot import plot_reliability
    from poimkit.plot.curves import MIN_PER_BIN

    rng = np.random.default_rng(0)
    for n, points in ((60, 2), (150, 5), (5000, 10)):
        p = rng.random(n)
        y = (rng.random(n) < p).astype(int)
        ax = plot_reliability(y, p)
        assert len(ax.lines[0].get_xdata()) == points
        assert n // points >= MIN_PER_BIN or points == 2
        plt.close(ax.figure)
    ax = plot_reliability(y, p, bins=4)  # a number given is kept
    assert len(ax.lines[0].get_xdata()) == 4
    plt.close(ax.figure)


@pytest.mark.parametrize(("seed", "sd"), [(1, 3), (2, 5)])
def test_one_positional_motif_is_reported_once(seed, sd):
    """Item 10: GATTACA came out twice or thrice (33.5, 36.7, 37.1)."""
    from poimkit import WDKernelSVC, compute_poim, extract_motifs
    from poimkit.background import MarkovBackground
    from poimkit.datasets import make_gattaca

    X, y = make_gattaca(
        n_pos=300, n_neg=300, length=70, mean=35, sd=sd, random_state=seed
    )
    model = WDKernelSVC(degree=8).fit(X, y)
    poim = compute_poim(model, 6, MarkovBackground.uniform(X.shape[1]))
    motifs = extract_motifs(poim, 3, sequences=X, labels=y)
    gattaca = [m for m in motifs if "GATTA" in m.consensus or "TTACA" in m.consensus]
    assert len(gattaca) == 1
    assert abs(gattaca[0].position - 35) < 2
    assert gattaca[0].frac_positive > 0.5  # the copy at every place, not the mode


def test_shared_sites_sees_every_site_of_the_other_motif_in_a_record():
    from poimkit.motifs.discovery import shared_sites
    from poimkit.motifs.scan import Sites

    one = np.zeros(3)
    a = Sites(np.array([0, 1, 2]), np.array([33, 33, 34]), one)
    # b holds two sites in each record, the first far from a's
    b = Sites(
        np.array([0, 0, 1, 1, 2, 2]), np.array([5, 32, 2, 30, 8, 36]), np.zeros(6)
    )
    assert shared_sites(a, 7, b, 7)
    far = Sites(np.array([0, 1, 2]), np.array([5, 2, 8]), one)
    assert not shared_sites(a, 7, far, 7)
