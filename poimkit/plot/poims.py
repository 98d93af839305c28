"""POIM figures: heatmaps, differential POIMs, weight mass, letter importance."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..alphabet import kmer_string
from ..errors import InputError

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..poim import Poim

from .axes import POSITION_LABEL, colorbar_label, integer_ticks, new_axes, open_frame
from .logos import LOGO_COLORS, draw_letter, letter_glyphs


def plot_poim_heatmap(
    poim: Poim,
    order: int,
    ax: Axes | None = None,
    top: int | None = None,
    cmap: str = "RdBu_r",
    cax: Axes | None = None,
) -> Axes:
    """Heatmap of ``Q_l(z, j)`` for one k-mer length l: k-mers by position.

    Parameters
    ----------
    poim : Poim
        POIMs of a model (`poimkit.compute_poim`), with order ``order``.
    order : int
        The k-mer length l.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    top : int, optional
        Show only the ``top`` k-mers of largest ``max_j |Q_l(z, j)|``, most
        important first. Default: all ``4**l`` k-mers (in index order) for
        l <= 2, the top 20 for longer k-mers.
    cmap : str or matplotlib colormap
        A diverging map; the colour limits are symmetric, ``±max |Q|`` shown.
    cax : matplotlib.axes.Axes, optional
        Axes for the colourbar; default: room taken from ``ax``.

    Returns
    -------
    matplotlib.axes.Axes
        Rows are k-mers (labelled), columns 1-based start positions j + 1; a
        colourbar is added next to it.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from poimkit import compute_poim
    >>> from poimkit.kernels.explicit import KmerWeights
    >>> sv = np.array([[2, 0, 3, 3, 0, 1], [1, 1, 1, 1, 1, 1]], dtype=np.uint8)
    >>> weights = KmerWeights.from_support_vectors(sv, [1.0, -1.0], 0.0, 3)
    >>> ax = plot_poim_heatmap(compute_poim(weights, 2), order=2, top=5)
    >>> len(ax.get_yticklabels()), [float(x) for x in ax.get_xlim()]
    (5, [0.5, 5.5])
    >>> plt.close(ax.figure)
    """
    q = poim.q(order)
    n_pos, n_kmers = q.shape
    if top is None:
        top = n_kmers if order <= 2 else 20
    if isinstance(top, bool) or not isinstance(top, int | np.integer) or top < 1:
        raise InputError(f"top must be a positive integer, got {top!r}")
    if top >= n_kmers:
        rows = np.arange(n_kmers)
    else:
        peak = np.abs(q).max(axis=0)
        best = np.argpartition(-peak, top - 1)[:top]
        rows = best[np.lexsort((best, -peak[best]))]
    data = q[:, rows].T
    limit = float(np.abs(data).max()) if data.size else 0.0
    limit = limit if limit > 0 else 1.0
    if ax is None:
        ax = new_axes((max(4.0, 0.3 * n_pos + 2.5), max(2.5, 0.22 * len(rows) + 1.2)))
    image = ax.imshow(
        data,
        aspect="auto",
        interpolation="nearest",
        cmap=cmap,
        vmin=-limit,
        vmax=limit,
        extent=(0.5, n_pos + 0.5, len(rows) - 0.5, -0.5),
    )
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([kmer_string(int(z), order) for z in rows], family="monospace")
    integer_ticks(ax.xaxis)
    ax.set_xlim(0.5, n_pos + 0.5)
    ax.set_xlabel(POSITION_LABEL)
    ax.set_ylabel(f"{order}-mer")
    ax.set_title(f"POIM, k-mer length {order}")
    ax.figure.colorbar(
        image, ax=ax, cax=cax, label=colorbar_label(f"$Q_{{{order}}}(z, j)$")
    )
    return ax


def plot_differential(
    poim: Poim, ax: Axes | None = None, cmap: str = "RdBu_r", cax: Axes | None = None
) -> Axes:
    """Heatmap of the differential POIM ``D_l(j)``: k-mer length by position.

    Parameters
    ----------
    poim : Poim
        POIMs of a model, from which ``D_l`` is computed.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    cmap : str or matplotlib colormap
        Diverging map centred on 0, each side stretched to the data's own
        extreme (so no half of it lies unused when D is mostly positive);
        undefined cells (k-mers running past the sequence end) are blank.
    cax : matplotlib.axes.Axes, optional
        Axes for the colourbar; default: room taken from ``ax``.

    Returns
    -------
    matplotlib.axes.Axes
        Rows k-mer lengths 1..K, columns 1-based start positions; with a
        colourbar.

    Notes
    -----
    ``D_l(j) = q_l(j) - max(q_{l-1}(j), q_{l-1}(j+1))`` with
    ``q_l(j) = max_z |Q_l(z, j)|`` and ``D_1 = q_1`` (`Poim.differential`).
    Peaks mark the length and start of motifs.
    """
    import matplotlib
    from matplotlib.colors import ListedColormap, Normalize, TwoSlopeNorm

    d = poim.differential()
    n_orders, length = d.shape
    finite = d[np.isfinite(d)]
    high = float(finite.max()) if finite.size else 0.0
    low = float(finite.min()) if finite.size else 0.0
    colormap = matplotlib.colormaps[cmap] if isinstance(cmap, str) else cmap
    # 0 stays the neutral colour (the middle of the map); values of one sign
    # use the matching half of the map only, so the colourbar has no empty half
    if low < 0 < high:
        norm = TwoSlopeNorm(vcenter=0.0, vmin=low, vmax=high)
    else:
        half = (0.5, 1.0) if high > 0 else (0.0, 0.5)
        colormap = ListedColormap(colormap(np.linspace(*half, 128)))
        norm = Normalize(vmin=min(low, 0.0), vmax=max(high, 0.0))
        if norm.vmin == norm.vmax:  # all zero
            norm = Normalize(vmin=0.0, vmax=1.0)
    colormap = colormap.with_extremes(bad=(0, 0, 0, 0))
    if ax is None:
        ax = new_axes((max(4.0, 0.3 * length + 2.5), max(2.5, 0.35 * n_orders + 1.2)))
    image = ax.imshow(
        np.ma.masked_invalid(d),
        aspect="auto",
        interpolation="nearest",
        cmap=colormap,
        norm=norm,
        extent=(0.5, length + 0.5, n_orders + 0.5, 0.5),
    )
    integer_ticks(ax.xaxis)
    integer_ticks(ax.yaxis)
    ax.set_xlim(0.5, length + 0.5)
    ax.set_ylim(n_orders + 0.5, 0.5)
    ax.set_xlabel(POSITION_LABEL)
    ax.set_ylabel("k-mer length")
    ax.set_title("differential POIM")
    ax.figure.colorbar(image, ax=ax, cax=cax, label=colorbar_label("$D_l(j)$"))
    return ax


def plot_weight_mass(
    poim: Poim,
    ax: Axes | None = None,
    orders: Sequence[int] | None = None,
    relative: bool = True,
) -> Axes:
    """Plot the weight mass ``W_l(j) = sum_z |Q_l(z, j)|`` against position.

    Parameters
    ----------
    poim : Poim
        POIMs of a model, one curve per order.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    orders : sequence of int, optional
        k-mer lengths to show; default all, 1..K.
    relative : bool, default=True
        Each order on its own scale, ``W_l(j) / max_j W_l(j)``: the mass of
        long k-mers is orders of magnitude above that of short ones, which
        would otherwise be flat lines.

    Returns
    -------
    matplotlib.axes.Axes
        One line per k-mer length, x the 1-based start position.
    """
    if orders is None:
        orders = range(1, poim.max_order + 1)
    orders = list(orders)
    if not orders:
        raise InputError("orders is empty; give at least one k-mer length")
    masses = [(l, poim.weight_mass(l)) for l in orders]  # validates each order
    if ax is None:
        ax = new_axes((6.0, 3.5))
    for l, mass in masses:
        top = float(mass.max()) if mass.size else 0.0
        if relative and top > 0:
            mass = mass / top
        ax.plot(np.arange(1, mass.size + 1), mass, marker=".", label=f"l = {l}")
    integer_ticks(ax.xaxis)
    ax.set_xlim(0.5, poim.length + 0.5)
    ax.set_xlabel(POSITION_LABEL)
    ax.set_ylabel(
        "$W_l(j)$ / its maximum" if relative else "weight mass $W_l(j)$ (score units)"
    )
    ax.set_title("POIM weight mass")
    ax.legend(title="k-mer length", fontsize="small")
    open_frame(ax)
    return ax


def plot_nucleotide_importance(poim: Poim, ax: Axes | None = None) -> Axes:
    """Signed logo of ``Q_1(z, j)``: which nucleotide raises the score where.

    Parameters
    ----------
    poim : Poim
        POIMs of a model; only order 1 is drawn.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.

    Returns
    -------
    matplotlib.axes.Axes
        At each 1-based position the letters with positive ``Q_1`` are stacked
        upwards and those with negative ``Q_1`` downwards, heights ``|Q_1|``
        (largest farthest from zero); ``ax.patches`` holds one patch per
        letter with a non-zero value.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from poimkit import compute_poim
    >>> from poimkit.kernels.explicit import KmerWeights
    >>> sv = np.array([[2, 0, 3], [1, 1, 1]], dtype=np.uint8)
    >>> weights = KmerWeights.from_support_vectors(sv, [1.0, -1.0], 0.0, 1)
    >>> ax = plot_nucleotide_importance(compute_poim(weights, 1))
    >>> len(ax.patches) <= 12, [float(x) for x in ax.get_xlim()]
    (True, [0.5, 3.5])
    >>> plt.close(ax.figure)
    """
    q = poim.q(1)
    n_pos = q.shape[0]
    if ax is None:
        ax = new_axes((max(5.0, 0.16 * n_pos + 2.0), 3.0))
    glyphs = letter_glyphs()
    for j in range(n_pos):
        up = down = 0.0
        for letter in np.argsort(np.abs(q[j]), kind="stable"):
            value = float(q[j, letter])
            if value > 0:
                draw_letter(ax, glyphs, letter, j + 1, up, value, LOGO_COLORS)
                up += value
            elif value < 0:
                draw_letter(
                    ax, glyphs, letter, j + 1, down + value, -value, LOGO_COLORS
                )
                down += value
    reach = float(
        max(
            np.clip(q, 0, None).sum(axis=1).max(),
            -np.clip(q, None, 0).sum(axis=1).min(),
            1e-12,
        )
    )
    ax.set_xlim(0.5, n_pos + 0.5)
    ax.set_ylim(-1.05 * reach, 1.05 * reach)
    ax.axhline(0.0, color="0.3", lw=0.6)
    integer_ticks(ax.xaxis)
    ax.set_xlabel("position (1-based)")
    ax.set_ylabel("$Q_1(z, j)$")
    ax.set_title("nucleotide importance: up raises the score, down lowers it")
    open_frame(ax)
    return ax
