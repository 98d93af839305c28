"""Motif families across a batch, and the known motifs' matrix (issue 57)."""

import numpy as np
import pytest

from poimkit.batch.families import (
    THRESHOLD,
    FoundMotif,
    families,
    known_matrix,
    similarity,
)
from poimkit.motifs.motif import Motif


def _found(word: str, experiment: str = "e", share: float = 0.5) -> FoundMotif:
    pwm = (
        np.full((len(word), 4), 0.02)
        + np.eye(4)[["ACGT".index(c) for c in word]] * 0.92
    )
    return FoundMotif(
        experiment,
        Motif(pwm, position=np.nan, spread=np.nan, name=word),
        word,
        "positive",
        share,
    )


def _reverse_complement(word: str) -> str:
    return word[::-1].translate(str.maketrans("ACGT", "TGCA"))


def test_a_motif_its_reverse_complement_and_a_part_of_it_are_alike():
    words = ["GATTACAG", _reverse_complement("GATTACAG"), "ATTACA", "CCGGCGCC"]
    sim = similarity([_found(w) for w in words])
    assert np.allclose(sim, sim.T) and np.allclose(np.diag(sim), 1.0)
    assert sim[0, 1] == pytest.approx(1.0) and sim[0, 2] == pytest.approx(1.0)
    assert sim[0, 3] < 0.3 and sim[2, 3] < 0.3


def test_families_join_alike_motifs_and_keep_the_rest_apart():
    words = ["GATTACAG", "GATTACAC", "CCGGCGCC", _reverse_complement("GATTACAG")]
    found = [_found(w, f"e{i}") for i, w in enumerate(words)]
    labels = families(similarity(found))
    assert labels.tolist() == [0, 0, 1, 0]  # numbered as first seen
    assert families(np.eye(1)).tolist() == [0] and families(np.eye(0)).size == 0


@pytest.mark.parametrize("threshold", [0.5, THRESHOLD, 0.95])
def test_the_threshold_is_where_average_linkage_stops(threshold):
    sim = np.array([[1.0, 0.8, 0.1], [0.8, 1.0, 0.1], [0.1, 0.1, 1.0]])
    labels = families(sim, threshold)
    assert (labels[0] == labels[1]) == (threshold <= 0.8)
    assert labels[2] not in labels[:2]


def test_the_known_matrix_holds_every_run_s_q_values(tmp_path):
    header = "id\tname\tpositives\tnegatives\todds_ratio\tp_value\tq_value\n"
    for name, rows in {
        "a": ["MA1\tCTCF\t0.5\t0.1\t9\t1e-9\t1e-8", "MA2\tSOX2\t0.2\t0.2\t1\t0.5\t0.9"],
        "b": ["MA2\tSOX2\t0.4\t0.1\t6\t1e-6\t1e-5"],
    }.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "known_motifs.tsv").write_text(
            header + "\n".join(rows) + "\n"
        )
    (tmp_path / "c").mkdir()  # ran without --known
    motifs, q = known_matrix(tmp_path, ["a", "b", "c"])
    assert motifs == ["MA1 CTCF", "MA2 SOX2"]
    assert q[0, 0] == 1e-8 and np.isnan(q[0, 1]) and np.isnan(q[:, 2]).all()
    assert q[1].tolist()[:2] == [0.9, 1e-5]


def test_a_motif_found_without_records_joins_its_family_without_a_share(tmp_path):
    from poimkit.batch.families import write_families

    found = [
        _found("GATTACAT", "a", 0.4),
        _found("GATTACAT", "zoo", np.nan),  # a model explained without records
        _found("GATTACAT", "a", 0.6),
        _found("CCGGCCGG", "b", 0.3),
    ]
    labels = families(similarity(found))
    rows = write_families(tmp_path, found, labels, ["a", "b", "zoo"])
    gattaca = rows[labels[0]]
    assert gattaca["representative"].share == 0.6  # a number over NaN
    assert gattaca["shares"]["a"] == 0.6 and np.isnan(gattaca["shares"]["zoo"])
    matrix = (tmp_path / "motif_matrix.tsv").read_text().splitlines()
    assert matrix[1 + labels[0]].split("\t")[1:] == ["0.6000", "0.0000", "nan"]


def test_the_known_heatmap_shows_every_experiment_s_strongest_motifs():
    """One factor's many matrices do not crowd out the others; noise adds none."""
    from poimkit.batch.atlas import KNOWN_PER_EXPERIMENT, strongest_known

    # rows 0-9: ten matrices of one factor, very strong in experiment 0;
    # rows 10-11: another factor's, weaker, in experiment 1; experiment 2: noise
    strength = np.zeros((12, 3))
    strength[:10, 0] = np.linspace(60, 40, 10)
    strength[10:, 1] = [8.0, 5.0]
    strength[:, 2] = 0.5  # q about 0.3: not significant
    rows = strongest_known(strength)
    assert rows == [0, 1, 10, 11][: 2 * KNOWN_PER_EXPERIMENT]


def test_a_known_match_named_in_words_stays_beside_its_motif():
    """``--compare my.meme`` names with spaces: one word each in the table."""
    from poimkit.batch.atlas import COLUMNS, _figures, render_atlas
    from poimkit.run.results import CVResult, RunSummary

    rows = [
        {"iupac": "GATTACA", "matches": [{"target": "M1 my motif name"}]},
        {"iupac": "CCGG", "matches": []},
    ]
    summary = RunSummary(
        task="classification",
        inputs=[],
        n_sequences=10,
        length=20,
        lengths=[20, 20],
        position_free=False,
        parameters={},
        family="wd",
        background="uniform",
        versions={},
        cv=CVResult.none("auc"),
        motifs=rows,
        motifs_note="",
        top_kmers=[],
        differential_peaks=[],
        figures=[],
        runtimes={},
        motif_model=None,
    )
    row = dict.fromkeys(COLUMNS, "") | _figures(summary)
    row.update(name="e", status="done", report="runs/e/report.html")
    assert row["motif_matches"] == "my_motif_name -"
    assert "GATTACA (my_motif_name) CCGG" in render_atlas([row])
