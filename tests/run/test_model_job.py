"""A model file explained untrained (`poimkit.run.explain_model`, issue 57)."""

import numpy as np
import pytest

from poimkit import GkmSVC, WDKernelSVC, load_model
from poimkit.background import MarkovBackground
from poimkit.errors import InputError
from poimkit.poim import Poim, compute_poim
from poimkit.run import RunOptions, RunSummary, explain_model
from poimkit.svm.lsgkm import write_lsgkm

from ..cli_runs import strict_json, write_gattaca

#: POIMs to 6-mers, up to two motifs
OPTIONS = RunOptions(max_order=6, max_motifs=2)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """GATTACA records, an LS-GKM file of a gkm model and a WD model's npz."""
    folder = tmp_path_factory.mktemp("explain")
    X, y = write_gattaca(folder, 150, 40, 20, 2, seed=4)
    write_lsgkm(GkmSVC(l=6, k=4, C=1.0).fit(X, y), folder / "gkm.model.txt")
    WDKernelSVC(degree=6, C=1.0).fit(X, y).save(folder / "wd.npz")
    return folder


def _has_gattaca(iupac: str) -> bool:
    return any(w in iupac for w in ("ATTAC", "GTAAT", "TTACA", "TGTAA"))


def test_an_lsgkm_file_alone_gives_its_exact_poims_and_motifs(files, tmp_path):
    out = tmp_path / "zoo"
    summary = explain_model(
        out, files / "gkm.model.txt", options=OPTIONS, progress=False
    )
    model = load_model(files / "gkm.model.txt")
    expected = compute_poim(model, 6, MarkovBackground.uniform(model.length_))
    written = Poim.load(out / "poim.npz")
    for k in range(1, 7):
        np.testing.assert_allclose(written.q(k), expected.q(k), atol=1e-12)
    assert summary.n_sequences == 0 and summary.position_free
    assert not summary.cv.done and summary.family == "LsgkmModel"
    assert summary.motifs and _has_gattaca(summary.motifs[0]["iupac"])
    # the model reads both strands: GATTACA is not reported again as TGTAATC
    assert sum(_has_gattaca(m["iupac"]) for m in summary.motifs) == 1
    assert summary.motifs[0]["strands"] is None  # no records: no sites
    assert "fitted to the POIMs alone" in summary.motifs_note
    # the file explained is kept as it was; the summary reads back as a run's
    copied = (out / "explained_model.model.txt").read_bytes()
    assert copied == (files / "gkm.model.txt").read_bytes()
    content = strict_json(out / "summary.json")
    again = RunSummary.from_json(content)
    assert [m["consensus"] for m in again.motifs] == [
        m["consensus"] for m in summary.motifs
    ]
    assert again.n_sequences == 0 and not again.cv.done
    assert not (out / "sites.tsv").exists()
    page = (out / "report.html").read_text()
    assert "not trained" in page and "gkm.model.txt" in page


def test_records_give_the_motifs_sites_evidence_and_known_enrichment(files, tmp_path):
    out = tmp_path / "with_records"
    summary = explain_model(
        out,
        files / "wd.npz",
        pos=files / "p.fa",
        neg=files / "n.fa",
        options=RunOptions(max_order=4, max_motifs=2, known="jaspar"),
        progress=False,
    )
    model = load_model(files / "wd.npz")
    expected = compute_poim(model, 4, MarkovBackground.uniform(40))
    np.testing.assert_allclose(
        Poim.load(out / "poim.npz").q(4), expected.q(4), atol=1e-12
    )
    assert summary.n_sequences == 300 and summary.n_positive == 150
    assert not summary.position_free and summary.family == "wd"
    best = summary.motifs[0]
    assert _has_gattaca(best["iupac"]) and best["q_value"] < 1e-3
    assert best["frac_positive"] > best["frac_negative"]
    assert 16 <= best["position"] <= 24  # planted at 20 (sd 2)
    assert (out / "sites.tsv").is_file() and (out / "known_motifs.tsv").is_file()
    assert summary.known_motifs["top"]  # tested in the records
    assert "matches" in best  # and compared with the found motifs


@pytest.mark.parametrize(
    "model, kwargs, says",
    [
        ("gkm.model.txt", {"pos": "p.fa"}, "need both pos and neg"),
        ("gkm.model.txt", {"background": "fit"}, "a fitted background needs records"),
        ("wd.npz", {"pos": "short.fa", "neg": "n.fa"}, "records of 40 letters"),
        ("none.txt", {}, "none.txt"),
    ],
)
def test_what_cannot_be_explained_is_refused_and_nothing_written(
    files, tmp_path, model, kwargs, says
):
    (files / "short.fa").write_text(">a\n" + "ACGT" * 5 + "\n>b\n" + "TTGA" * 5 + "\n")
    records = {k: files / v for k, v in kwargs.items() if k in ("pos", "neg")}
    options = RunOptions(max_order=3, background=kwargs.get("background", "uniform"))
    out = tmp_path / "refused"
    with pytest.raises(InputError, match=says):
        explain_model(out, files / model, **records, options=options, progress=False)
    assert not out.exists()


def test_a_regression_model_is_explained_as_one_and_its_records_refused(
    files, tmp_path
):
    from poimkit import WDKernelSVR
    from poimkit.io import read_fasta

    X = [*read_fasta(files / "p.fa")[1], *read_fasta(files / "n.fa")[1]]
    target = np.repeat([2.0, 0.0], len(X) // 2)
    WDKernelSVR(degree=4, C=1.0).fit(X, target).save(files / "svr.npz")
    options = RunOptions(max_order=3, max_motifs=1)
    summary = explain_model(
        tmp_path / "svr", files / "svr.npz", options=options, progress=False
    )
    assert summary.task == "regression" and summary.cv.metric == "pearson"
    with pytest.raises(InputError, match="records would need targets"):
        explain_model(
            tmp_path / "svr_records",
            files / "svr.npz",
            pos=files / "p.fa",
            neg=files / "n.fa",
            options=options,
            progress=False,
        )
    assert not (tmp_path / "svr_records").exists()
