"""Figures of position-free models: k-mer importance anywhere, where sites lie.

A position-free model (`poimkit.GkmSVC`) weighs a word alike wherever it
occurs, so its figures show which k-mers it rewards (`plot_kmer_importance`)
and where the motif sites it finds lie in the records (`plot_site_positions`)
instead of importance by position. Drawing conventions as in `poimkit.plot`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..alphabet import kmer_string
from ..errors import InputError
from ..motifs.motif import Motif
from .axes import new_axes, open_frame

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..poim import Poim


def plot_kmer_importance(
    poim: Poim, order: int, ax: Axes | None = None, top: int = 8
) -> Axes:
    """Bars of the position-free importance of the strongest k-mers of one length.

    The ``top`` k-mers that raise the score most and the ``top`` that lower it
    most, by `Poim.anywhere` (``mean_j Q_l(z, j)``: the expected change of the
    score when z occurs at a random position), strongest at the top.

    Parameters
    ----------
    poim : Poim
        POIMs of a model, typically position-free (`poimkit.GkmSVC`).
    order : int
        The k-mer length l.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    top : int, default=8
        k-mers shown on each side (fewer if fewer have that sign).

    Returns
    -------
    matplotlib.axes.Axes
        One bar per k-mer (``ax.patches``), labelled on the y axis; red bars
        raise the score, blue ones lower it.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from poimkit import compute_poim
    >>> from poimkit.kernels.explicit import KmerWeights
    >>> tables = [np.zeros((6, 4)), np.zeros((5, 16))]  # orders 1 and 2, length 6
    >>> tables[1][:, 15], tables[1][:, 5] = 1.0, -1.0  # TT anywhere +1, CC -1
    >>> weights = KmerWeights.from_tables(tables, bias=0.0)
    >>> ax = plot_kmer_importance(compute_poim(weights, 2), 2, top=3)
    >>> labels = [t.get_text() for t in ax.get_yticklabels()]
    >>> labels[0], labels[-1], len(ax.patches)
    ('TT', 'CC', 6)
    >>> plt.close(ax.figure)
    """
    if isinstance(top, bool) or not isinstance(top, int | np.integer) or top < 1:
        raise InputError(f"top must be a positive integer, got {top!r}")
    value = poim.anywhere(order)  # validates the order
    ranked = np.argsort(-value, kind="stable")
    up = [z for z in ranked[:top] if value[z] > 0]
    down = [z for z in ranked[::-1][:top] if value[z] < 0][::-1]
    rows = up + down
    if ax is None:
        ax = new_axes((4.2, 0.24 * max(len(rows), 1) + 1.2))
    y = np.arange(len(rows))
    ax.barh(
        y,
        value[rows],
        color=["#b2182b" if value[z] > 0 else "#2166ac" for z in rows],
        height=0.7,
    )
    ax.set_yticks(y)
    ax.set_yticklabels([kmer_string(int(z), order) for z in rows], family="monospace")
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.axvline(0.0, color="0.3", lw=0.6)
    ax.set_xlabel("mean $Q_l$ over positions (score change)")
    ax.set_title(f"{order}-mers, anywhere")
    open_frame(ax)
    return ax


def site_offsets(motif: Motif, lengths: ArrayLike) -> np.ndarray:
    """Centre of each site of a motif minus the centre of its record (letters).

    Parameters
    ----------
    motif : Motif
        A motif with sites (`poimkit.extract_motifs` with sequences).
    lengths : array-like of int, shape (n,)
        Length of every record the sites' rows index.

    Returns
    -------
    numpy.ndarray of float64, one per site
        0 for a site in the middle of its record, negative towards its start;
        whole or half letters.

    Examples
    --------
    >>> from poimkit.motifs.scan import Sites
    >>> m = Motif(np.eye(4)[[0, 1, 2]], np.nan, np.nan)
    >>> m.sites = Sites(np.array([0, 1]), np.array([0, 4]), np.zeros(2))
    >>> site_offsets(m, [9, 8]).tolist()  # centres 1 and 5; records' 4 and 3.5
    [-3.0, 1.5]
    """
    if motif.sites is None:
        raise InputError(f"motif {motif.name} has no sites (give sequences)")
    lengths = np.asarray(lengths, dtype=np.float64)
    sites = motif.sites
    return sites.starts + (motif.length - 1) / 2 - (lengths[sites.rows] - 1) / 2


def plot_site_positions(
    motifs: Sequence[Motif],
    lengths: ArrayLike,
    labels: ArrayLike | None = None,
    ax: Axes | None = None,
    bins: int = 30,
) -> Axes:
    """Histogram of where motif sites lie in their records, relative to the centre.

    For a position-free model, whose motifs have no position: are the sites
    spread evenly, or do they gather at the records' centres (as in peaks
    centred on a bound factor)? One step histogram per motif of
    `site_offsets`.

    Parameters
    ----------
    motifs : sequence of Motif
        Motifs with sites.
    lengths : array-like of int, shape (n,)
        Length of every record.
    labels : array-like of shape (n,), optional
        1 for positives: only their sites are counted. Default: all sites.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    bins : int, default=30
        Bins over the range a site centre can take.

    Returns
    -------
    matplotlib.axes.Axes
        One line per motif (``ax.patches``), x the offset in letters.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from poimkit.motifs.scan import Sites
    >>> m = Motif(np.eye(4)[[0, 1, 2]], np.nan, np.nan, name="m1")
    >>> m.sites = Sites(np.array([0, 1]), np.array([0, 4]), np.zeros(2))
    >>> ax = plot_site_positions([m], [9, 8])
    >>> len(ax.patches), ax.get_legend().get_texts()[0].get_text()
    (1, 'm1 (2 sites)')
    >>> plt.close(ax.figure)
    """
    lengths = np.asarray(lengths)
    half = max(float(lengths.max()) / 2, 1.0)
    edges = np.linspace(-half, half, bins + 1)
    if ax is None:
        ax = new_axes((6.0, 3.2))
    for motif in motifs:
        offsets = site_offsets(motif, lengths)
        if labels is not None:
            offsets = offsets[np.asarray(labels)[motif.sites.rows] == 1]
        ax.hist(
            offsets,
            bins=edges,
            histtype="step",
            lw=1.6,
            label=f"{motif.name} ({offsets.size} sites)",
        )
    ax.axvline(0.0, color="0.5", lw=0.8, ls="--")
    ax.set_xlim(-half, half)
    ax.set_xlabel("site centre minus record centre (letters)")
    ax.set_ylabel("sites" + (" in positives" if labels is not None else ""))
    ax.set_title("where the motif sites lie in the records")
    if motifs:
        ax.legend(fontsize="small", frameon=False)
    open_frame(ax)
    return ax
