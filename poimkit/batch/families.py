"""Motif families across a batch: every de novo motif of every experiment, clustered.

Two motifs are alike by the column score Tomtom and STAMP call ``pearson``
(`poimkit.motifs.compare.match_motifs`): the best alignment's summed
correlation of the letter probabilities, both strands, every shift with at
least `MIN_OVERLAP` shared columns, divided by the shorter motif's length (a
short motif inside a long one scores 1). Average-linkage clustering joins
motifs whose similarity is at least `THRESHOLD`. A family's representative is
its member found in the largest share of its experiment's records.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: the similarity at which two motifs are one family (average linkage)
THRESHOLD = 0.7
#: the fewest columns an alignment of two motifs shares
MIN_OVERLAP = 5


@dataclass(frozen=True)
class FoundMotif:
    """One de novo motif of one experiment.

    Parameters
    ----------
    experiment : str
        The experiment that reported it.
    motif : Motif
        Its PWM and name (from the run's ``motifs.meme``).
    iupac : str
        Its IUPAC consensus.
    label : str
        "positive" or "negative": the class whose records carry it ("" for
        targets).
    share : float
        The share of its class's held-out records with a site (targets: of
        all records); NaN for a model explained without records.
    """

    experiment: str
    motif: object
    iupac: str
    label: str
    share: float


def batch_motifs(runs: Path, names: Sequence[str]) -> list[FoundMotif]:
    """Every reported motif of the runs ``runs/NAME`` (those with a summary).

    Parameters
    ----------
    runs : pathlib.Path
        The batch's ``runs`` folder.
    names : sequence of str
        The experiments, in the sheet's order.

    Returns
    -------
    list of FoundMotif
    """
    import json

    from ..motifs.formats import read_motifs

    found = []
    for name in names:
        folder = runs / name
        if not (folder / "summary.json").is_file():
            continue
        rows = {
            r["name"]: r
            for r in json.loads((folder / "summary.json").read_text())["motifs"]
        }
        if not rows:
            continue
        for motif in read_motifs(folder / "motifs.meme"):
            row = rows.get(motif.name)
            if row is None:
                continue
            label = row.get("class", "")
            share = (
                row["frac_negative"] if label == "negative" else row["frac_positive"]
            )
            share = np.nan if share is None else float(share)  # no records: no share
            found.append(FoundMotif(name, motif, row["iupac"], label, share))
    return found


def similarity(motifs: Sequence[FoundMotif]) -> np.ndarray:
    """Pairwise similarity of the motifs (symmetric, 1 on the diagonal).

    Parameters
    ----------
    motifs : sequence of FoundMotif

    Returns
    -------
    numpy.ndarray of float64, shape (n, n)
    """
    from ..motifs.compare import match_motifs

    n = len(motifs)
    out = np.eye(n)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = motifs[i].motif, motifs[j].motif
            query, target = (a, b) if a.length <= b.length else (b, a)
            [best] = match_motifs(query, [target], top=1, min_overlap=MIN_OVERLAP)
            out[i, j] = out[j, i] = best.score
    return out


def families(sim: np.ndarray, threshold: float = THRESHOLD) -> np.ndarray:
    """Family labels (0, 1, ...; first seen first) by average linkage.

    Parameters
    ----------
    sim : numpy.ndarray, shape (n, n)
        `similarity`.
    threshold : float
        Motifs join while their average similarity is at least this.

    Returns
    -------
    numpy.ndarray of int64, shape (n,)
    """
    n = sim.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if n == 1:
        return np.zeros(1, dtype=np.int64)
    from scipy.cluster.hierarchy import fcluster, linkage
    from scipy.spatial.distance import squareform

    distance = np.clip(1.0 - sim, 0.0, None)
    np.fill_diagonal(distance, 0.0)
    tree = linkage(squareform(distance, checks=False), method="average")
    raw = fcluster(tree, t=1.0 - threshold, criterion="distance")
    order = {}
    return np.array([order.setdefault(r, len(order)) for r in raw], dtype=np.int64)


def write_families(
    out: Path, found: Sequence[FoundMotif], labels: np.ndarray, names: Sequence[str]
) -> list[dict]:
    """``motif_families.tsv``, ``.meme`` and ``motif_matrix.tsv`` in ``out``.

    Parameters
    ----------
    out : pathlib.Path
        The batch folder.
    found : sequence of FoundMotif
        Every motif.
    labels : numpy.ndarray
        Their families (`families`).
    names : sequence of str
        The experiments (the matrix's columns).

    Returns
    -------
    list of dict
        One per family: ``family``, ``representative`` (a FoundMotif),
        ``members``, ``experiments``, ``shares`` (experiment -> the largest
        share of records with a site of its members there; NaN where only a
        model explained without records found it).
    """
    from ..io.files import write_table
    from ..motifs.formats import write_meme

    rows = []
    for f in range(int(labels.max()) + 1 if len(labels) else 0):
        members = [m for m, label in zip(found, labels, strict=True) if label == f]
        shares: dict[str, float] = {}
        for m in members:
            shares[m.experiment] = _larger(shares.get(m.experiment), m.share)
        best = max(
            members, key=lambda m: (np.isfinite(m.share), np.nan_to_num(m.share))
        )
        rows.append(
            {
                "family": f"family_{f + 1}",
                "representative": best,
                "members": members,
                "experiments": sorted(shares, key=list(names).index),
                "shares": shares,
            }
        )
    write_table(
        out / "motif_families.tsv",
        ["family", "representative", "iupac", "n_members", "experiments", "members"],
        [
            [
                r["family"],
                f"{r['representative'].experiment}:{r['representative'].motif.name}",
                r["representative"].iupac,
                len(r["members"]),
                ",".join(r["experiments"]),
                ",".join(f"{m.experiment}:{m.iupac}" for m in r["members"]),
            ]
            for r in rows
        ],
    )
    write_table(
        out / "motif_matrix.tsv",
        ["family", *names],
        [
            [r["family"], *(f"{r['shares'].get(n, 0.0):.4f}" for n in names)]
            for r in rows
        ],
    )
    from dataclasses import replace

    representatives = [
        replace(r["representative"].motif, name=r["family"]) for r in rows
    ]
    write_meme(out / "motif_families.meme", representatives, np.full(4, 0.25))
    return rows


def _larger(old: float | None, new: float) -> float:
    """The larger share, a number over NaN (a member found without records)."""
    if old is None or np.isnan(old) or new > old:
        return new
    return old


def known_matrix(runs: Path, names: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """The known motifs' q-values per experiment (from each ``known_motifs.tsv``).

    Parameters
    ----------
    runs : pathlib.Path
        The batch's ``runs`` folder.
    names : sequence of str
        The experiments (columns); one without the table gives NaN.

    Returns
    -------
    motifs : list of str
        ``ID NAME`` of every known motif tested anywhere, first seen first.
    q : numpy.ndarray of float64, shape (len(motifs), len(names))
    """
    import csv

    found: dict[str, dict[str, float]] = {}
    for name in names:
        path = runs / name / "known_motifs.tsv"
        if not path.is_file():
            continue
        with open(path, newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                key = f"{row['id']} {row['name']}"
                found.setdefault(key, {})[name] = float(row["q_value"])
    motifs = list(found)
    q = np.full((len(motifs), len(names)), np.nan)
    for i, key in enumerate(motifs):
        for j, name in enumerate(names):
            q[i, j] = found[key].get(name, np.nan)
    return motifs, q


def plot_matrix(
    values: np.ndarray, rows: Sequence[str], columns: Sequence[str], label: str
):
    """A heatmap with rows and columns ordered by average-linkage clustering.

    Parameters
    ----------
    values : numpy.ndarray, shape (r, c)
        The colour; NaN cells are grey (and count as the largest value in
        the clustering).
    rows, columns : sequence of str
        Their names.
    label : str
        The colour bar's label.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib as mpl
    from matplotlib.figure import Figure

    finite = np.nan_to_num(values, nan=np.nanmax(values, initial=1.0))
    order_r, order_c = _order(finite), _order(finite.T)
    values = values[np.ix_(order_r, order_c)]
    # room for the labels (about 0.08 in a letter) beside cells of 0.5 x 0.3 in
    left = 0.08 * max(len(r) for r in rows)
    bottom = 0.08 * max(len(c) for c in columns)
    width = left + max(2.5, 0.5 * len(columns)) + 1.2
    height = bottom + max(1.5, 0.3 * len(rows)) + 0.4
    fig = Figure(figsize=(width, height), layout="constrained")
    ax = fig.add_subplot()
    cmap = mpl.colormaps["viridis"].with_extremes(bad="lightgrey")
    image = ax.imshow(np.ma.masked_invalid(values), aspect="auto", cmap=cmap)
    ax.set_xticks(range(len(columns)), [columns[i] for i in order_c], rotation=90)
    ax.set_yticks(range(len(rows)), [rows[i] for i in order_r])
    fig.colorbar(image, ax=ax, label=label, shrink=0.8)
    return fig


def _order(values: np.ndarray) -> list[int]:
    """Rows in the leaf order of their average-linkage tree."""
    if values.shape[0] < 3:
        return list(range(values.shape[0]))
    from scipy.cluster.hierarchy import leaves_list, linkage

    return list(leaves_list(linkage(values, method="average")))
