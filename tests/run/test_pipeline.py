import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold

from poimkit import WDKernelSVC, read_labeled
from poimkit.alphabet import kmer_index
from poimkit.datasets import make_gattaca
from poimkit.errors import InputError
from poimkit.io import write_fasta
from poimkit.io.outdir import LAYOUT, staged_directory
from poimkit.motifs.formats import read_motifs
from poimkit.poim import Poim
from poimkit.run import RunOptions, RunSummary, run_pipeline

from ..cli_runs import strict_json

ROOT = Path(__file__).resolve().parents[2]
SPLICE = ROOT / "data" / "splice"
SMALL = RunOptions(degree=8, cv=3, max_order=5, max_motifs=1)


@pytest.fixture(scope="module")
def small_pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pipeline")
    X, y = make_gattaca(n_pos=60, n_neg=60, length=30, mean=12, sd=1, random_state=3)
    pos, neg = folder / "pos.fa", folder / "neg.fa"
    write_fasta(pos, [f"p{i}" for i in range(60)], X[y == 1])
    write_fasta(neg, [f"n{i}" for i in range(60)], X[y == 0])
    return pos, neg


@pytest.fixture(scope="module")
def small_run(small_pair, tmp_path_factory):
    pos, neg = small_pair
    out = tmp_path_factory.mktemp("runs") / "out"
    summary = run_pipeline(
        out, pos=str(pos), neg=str(neg), options=SMALL, progress=False
    )
    return out, summary


def test_output_folder_holds_every_file(small_run):
    out, summary = small_run
    every = ("model", "poim", "top_kmers", "motifs", "sites", "summary", "report")
    for name in (getattr(LAYOUT, field) for field in every):
        assert (out / name).is_file(), name
    figures = sorted(p.name for p in (out / "figures").iterdir())
    assert figures == sorted(summary.figures)
    assert {"roc.png", "differential_poim.png", "weight_mass.png"} <= set(figures)
    assert "nucleotide_importance.png" in figures
    assert {f"poim_order_{l}.png" for l in (1, 2, 3)} <= set(figures)
    # nothing staged is left next to it
    assert [p.name for p in out.parent.iterdir()] == ["out"]


def test_summary_contract_and_numbers(small_run, small_pair):
    out, summary = small_run
    on_disk = strict_json(out / "summary.json")
    assert on_disk == summary.to_json()
    assert on_disk["task"] == "classification" and on_disk["format_version"] == 1
    for key in ("cv_auc", "n_sequences", "length", "parameters", "versions", "motifs"):
        assert key in on_disk
    # read back, the summary is the same (its CV without the held-out arrays)
    assert RunSummary.from_json(on_disk).to_json() == on_disk
    assert summary.n_sequences == 120 and summary.length == 30
    assert summary.versions["poimkit"]
    # GC content alone, in the same folds (issue 55): said beside the AUC
    gc = summary.cv.baseline
    assert len(gc["gc_cv_auc_folds"]) == 3 and 0 <= gc["gc_cv_auc"] <= 1
    report = (out / "report.html").read_text()
    assert f"GC content alone reaches {summary.cv.baseline['gc_cv_auc']:.3f}" in report
    # the SVM's CV AUC is the mean of the folds of the documented split, each
    # fold's model with the parameters its inner CV chose (degree fixed by
    # SMALL); the summary's figures are those of the model the run chose
    svm = summary.cv.models["svm"]
    assert summary.cv.figure() == summary.cv.models[summary.chosen_model]["cv_auc"]
    pos, neg = small_pair
    _, X, y = read_labeled(pos=pos, neg=neg)
    folds = summary.cv.selection["folds"]
    assert len(folds) == 3 and all(f["params"]["degree"] == 8 for f in folds)
    assert summary.cv.selection["grid"]["degree"] == [8]
    aucs = []
    splits = StratifiedKFold(3, shuffle=True, random_state=0).split(X, y)
    for (train, test), fold in zip(splits, folds, strict=True):
        model = WDKernelSVC(**fold["params"]).fit(X[train], y[train])
        aucs.append(roc_auc_score(y[test], model.decision_function(X[test])))
    assert svm["cv_auc"] == pytest.approx(np.mean(aucs), rel=1e-12)
    assert svm["cv_auc_folds"] == pytest.approx(aucs, abs=1e-6)
    # checksums name the inputs
    digests = {i["role"]: i["sha256"] for i in summary.inputs}
    assert set(digests) == {"pos", "neg"}
    assert all(re.fullmatch("[0-9a-f]{64}", d) for d in digests.values())
    # motif rows: 1-based position, strongest first, and the same in motifs.meme
    motifs = summary.motifs
    assert motifs and {"consensus", "position", "importance"} <= set(motifs[0])
    assert [m["importance"] for m in motifs] == sorted(
        (m["importance"] for m in motifs), reverse=True
    )
    assert "GATTAC" in motifs[0]["consensus"] or "ATTACA" in motifs[0]["consensus"]
    assert abs(motifs[0]["position"] - 12) <= 2
    written = read_motifs(out / "motifs.meme")
    assert [m.consensus for m in written] == [m["consensus"] for m in motifs]
    # evidence: the documented fields, and the sites behind them in sites.tsv
    contract = {
        "consensus",
        "iupac",
        "position",
        "spread",
        "importance",
        "n_sites",
        "frac_positive",
        "frac_negative",
        "p_value",
        "q_value",
        "e_value",
    }
    assert contract <= set(motifs[0])
    assert all(m["q_value"] <= 0.05 for m in motifs)
    assert [m.n_sites for m in written] == [m["n_sites"] for m in motifs]
    rows = [r.split("\t") for r in (out / "sites.tsv").read_text().splitlines()]
    assert rows[0] == ["sequence", "label", "motif", "start", "strand", "score"]
    first = [r for r in rows[1:] if r[2] == "motif_1"]
    assert sum(r[1] == "1" for r in first) == motifs[0]["n_sites"]
    assert all(r[0].startswith("p") == (r[1] == "1") for r in first)
    lo, hi = svm["cv_auc_interval"]
    assert lo < svm["cv_auc"] < hi


def test_no_motifs_from_a_model_at_chance(tmp_path):
    rng = np.random.default_rng(1)
    X = rng.integers(0, 4, size=(120, 30), dtype=np.uint8)
    pos, neg = tmp_path / "p.fa", tmp_path / "n.fa"
    write_fasta(pos, [f"p{i}" for i in range(60)], X[:60])
    write_fasta(neg, [f"n{i}" for i in range(60)], X[60:])
    out = tmp_path / "out"
    summary = run_pipeline(
        out, pos=str(pos), neg=str(neg), options=SMALL, progress=False
    )
    assert summary.cv.figures["cv_auc_interval"][0] <= 0.5
    assert summary.motifs == []
    assert "not better than chance" in summary.motifs_note
    assert (out / "sites.tsv").read_text().splitlines() == [
        "sequence\tlabel\tmotif\tstart\tstrand\tscore"
    ]
    assert read_motifs(out / "motifs.meme") == []
    assert "the model is not better than chance" in (out / "report.html").read_text()


def test_saved_model_and_poim_are_the_run_s(small_run, small_pair):
    out, summary = small_run
    pos, neg = small_pair
    _, X, y = read_labeled(pos=pos, neg=neg)
    model = WDKernelSVC.load(out / "model.npz")
    chosen = summary.parameters["chosen"]
    assert chosen == summary.cv.selection["chosen"]  # the all-data inner CV's
    np.testing.assert_allclose(
        model.decision_function(X),
        WDKernelSVC(**chosen).fit(X, y).decision_function(X),
        rtol=1e-9,
    )
    poim = Poim.load(out / "poim.npz")
    assert poim.max_order == 5
    top = summary.top_kmers[0]
    assert (top["kmer"], top["position"]) == poim.top(1)[0][:2]
    lines = (out / "top_kmers.tsv").read_text().splitlines()
    assert len(lines) == 51


def test_report_is_self_contained(small_run):
    out, summary = small_run
    page = (out / "report.html").read_text()
    sources = re.findall(r'src="([^"]*)"', page)
    assert len(sources) == len(summary.figures)
    assert all(s.startswith("data:image/png;base64,") for s in sources)
    text = re.sub(r'src="data:[^"]*"', "", page)  # base64 may spell anything
    assert "<link" not in text and "http" not in text
    assert f"{summary.cv.figures['cv_auc']:.3f}" in page
    assert "chosen by nested cross-validation" in page
    assert summary.motifs[0]["iupac"] in page


def test_existing_output_is_refused_then_replaced_with_force(small_pair, tmp_path):
    pos, neg = small_pair
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.txt").write_text("keep me")
    with pytest.raises(InputError, match="exists.*--force"):
        run_pipeline(out, pos=str(pos), neg=str(neg), options=SMALL, progress=False)
    assert (out / "old.txt").read_text() == "keep me"
    with pytest.raises(InputError, match="not made by poimkit"):
        run_pipeline(
            out, pos=str(pos), neg=str(neg), options=SMALL, force=True, progress=False
        )
    assert (out / "old.txt").read_text() == "keep me"
    (out / "old.txt").unlink()  # an empty folder may be replaced
    run_pipeline(
        out, pos=str(pos), neg=str(neg), options=SMALL, force=True, progress=False
    )
    run_pipeline(  # and poimkit's own results
        out, pos=str(pos), neg=str(neg), options=SMALL, force=True, progress=False
    )
    assert (out / "summary.json").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_failure_midway_leaves_no_output(small_pair, tmp_path):
    pos, neg = small_pair
    out = tmp_path / "out"
    # a POIM larger than the memory cap fails after CV and training ran
    options = RunOptions(degree=8, cv=3, max_order=3, memory_limit_gb=1e-9)
    with pytest.raises(InputError, match="memory"):
        run_pipeline(out, pos=str(pos), neg=str(neg), options=options, progress=False)
    assert list(tmp_path.iterdir()) == []


def test_staged_directory_removed_on_interrupt(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt), staged_directory(out) as staged:
        (staged / "half.txt").write_text("x")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (RunOptions(cv=1), "cv"),
        (RunOptions(markov_order=2), "markov_order"),
        (RunOptions(background="gc"), "background"),
        (RunOptions(C=0.0), "C must be positive"),
        (RunOptions(max_order=0), "max_order"),
    ],
)
def test_bad_options_stop_before_anything_is_written(options, message, tmp_path):
    with pytest.raises(InputError, match=message):
        run_pipeline(tmp_path / "out", pos="a.fa", neg="b.fa", options=options)
    assert list(tmp_path.iterdir()) == []


def test_too_few_sequences_per_class_for_the_folds(tmp_path):
    pos, neg = tmp_path / "p.fa", tmp_path / "n.fa"
    write_fasta(pos, ["a", "b"], ["ACGTAC", "ACGTTT"])
    write_fasta(neg, ["c", "d", "e"], ["TTTTAC", "GGGTTT", "CCCAAA"])
    with pytest.raises(InputError, match="at least 3 sequences per class"):
        run_pipeline(
            tmp_path / "out", pos=str(pos), neg=str(neg), options=SMALL, progress=False
        )
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- #
# real data: the splice-junction set must show the known biology
# --------------------------------------------------------------------------- #
def _q1(poim: Poim, letter: str, position: int) -> float:
    return float(poim.q(1)[position - 1, kmer_index(letter)])


@pytest.fixture(scope="module")
def splice_runs(tmp_path_factory):
    runs = {}
    options = RunOptions(
        degree=10, cv=3, max_order=3, max_motifs=1, drop_invalid=True, grid=False
    )
    for site in ("EI", "IE"):
        out = tmp_path_factory.mktemp("splice") / site
        summary = run_pipeline(
            out,
            pos=str(SPLICE / f"{site}.fa"),
            neg=str(SPLICE / "N.fa"),
            options=options,
            progress=False,
        )
        runs[site] = summary, Poim.load(out / "poim.npz")
    return runs


def test_splice_donor_shows_gt_after_the_boundary(splice_runs):
    summary, poim = splice_runs["EI"]
    assert summary.n_sequences + summary.n_dropped == 767 + 1655
    assert summary.cv.figures["cv_auc"] > 0.97
    q1 = poim.q(1)
    # the two most important single letters anywhere: G at 31 and T at 32
    order = np.argsort(-q1.ravel())[:2]
    found = {(int(i // 4) + 1, "ACGT"[i % 4]) for i in order}
    assert found == {(31, "G"), (32, "T")}
    # the strongest dinucleotide is GT starting at 31
    assert poim.top(1, order=2)[0][:2] == ("GT", 31)


def test_splice_acceptor_shows_ag_and_polypyrimidine_tract(splice_runs):
    summary, poim = splice_runs["IE"]
    assert summary.cv.figures["cv_auc"] > 0.97
    assert _q1(poim, "A", 29) > 0 and _q1(poim, "G", 30) > 0
    assert poim.top(1, order=2)[0][:2] == ("AG", 29)
    # upstream of the AG, pyrimidines raise the score and purines lower it
    tract = range(15, 28)
    pyrimidines = np.mean([_q1(poim, c, j) for j in tract for c in "CT"])
    purines = np.mean([_q1(poim, c, j) for j in tract for c in "AG"])
    assert pyrimidines > 0 > purines
    assert np.mean([_q1(poim, "T", j) > _q1(poim, "A", j) for j in tract]) >= 0.8


def test_promoters_show_the_minus_35_and_minus_10_boxes(tmp_path):
    promoters = ROOT / "data" / "promoters"
    summary = run_pipeline(
        tmp_path / "out",
        pos=str(promoters / "positives.fa"),
        neg=str(promoters / "negatives.fa"),
        options=RunOptions(degree=20, cv=3, max_order=6, max_motifs=3, grid=False),
        progress=False,
    )
    assert summary.cv.figures["cv_auc"] > 0.9
    # -35 box TTGACA: 1-based 15 is position -36 relative to the start (+1 at 51)
    top = summary.top_kmers[0]
    assert (top["kmer"], top["position"]) == ("TTGACA", 15)
    # the -35 box is the first motif, from its sites, with evidence (53
    # positives are too few for the sites of the -10 box: see the benchmark)
    first = summary.motifs[0]
    assert "TTGAC" in first["consensus"] and abs(first["position"] - 16) <= 2
    assert first["frac_positive"] > 3 * first["frac_negative"]
    assert all(m["q_value"] <= 0.05 for m in summary.motifs)
    assert all(set(m["iupac"]) != {"N"} for m in summary.motifs)


def test_motif_model_is_nested_and_saved(small_pair, tmp_path, monkeypatch):
    """Each fold's motifs come from its training sequences only (ids checked)."""
    import poimkit.run.motif_model as motif_model
    from poimkit.motifs.model import MotifClassifier, load_motif_model

    pos, neg = small_pair
    seen = []  # ids of the sequences each fold's motifs were sought in
    original = motif_model.compute_run_poim

    def recording(model, part, options, progress=False):
        seen.append(set(part.ids))
        return original(model, part, options, progress)

    monkeypatch.setattr(motif_model, "compute_run_poim", recording)
    out = tmp_path / "out"
    summary = run_pipeline(
        out, pos=str(pos), neg=str(neg), options=SMALL, progress=False
    )
    ids, X, y = read_labeled(pos=str(pos), neg=str(neg))
    folds = StratifiedKFold(3, shuffle=True, random_state=SMALL.seed).split(X, y)
    assert len(seen) == 3
    for fold_ids, (train, test) in zip(seen, folds, strict=True):
        assert fold_ids == {ids[i] for i in train}
        assert not fold_ids & {ids[i] for i in test}
    explained = summary.motif_model
    assert summary.motifs and explained is not None
    assert 0.5 < explained["cv_auc"] <= 1 and explained["fidelity"] > 0.5
    assert [c["motif"] for c in explained["coefficients"]] == [
        m["name"] for m in summary.motifs
    ]
    loaded = load_motif_model(out / "motif_model.npz")
    assert isinstance(loaded, MotifClassifier)
    assert roc_auc_score(y, loaded.decision_function(X)) > 0.8
    report = (out / "report.html").read_text()
    assert "of the model's ranking" in report or "as well as the SVM" in report
    # the three models on the same folds; the figures are the chosen one's
    models, chosen = summary.cv.models, summary.chosen_model
    assert set(models) == {"svm", "motifs", "stack"} and chosen in models
    assert summary.cv.figures["cv_auc"] == models[chosen]["cv_auc"]
    assert explained["cv_auc"] == models["motifs"]["cv_auc"]
    best = max(m["cv_auc"] for m in models.values())
    assert chosen != "svm" or models["svm"]["cv_auc"] >= best - 0.05
    assert (out / "stack.npz").exists() == (chosen == "stack")
