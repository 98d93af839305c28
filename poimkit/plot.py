"""Figures: sequence logos, POIM heatmaps, differential POIMs, weight mass.

Every function draws on the Axes it is given (or on a new figure made with
`matplotlib.pyplot.subplots` when ``ax`` is None) and returns that Axes. Nothing
here changes matplotlib's global settings or chooses a backend. Positions
shown are **1-based**: the first letter of a sequence is position 1.

Examples
--------
>>> import matplotlib.pyplot as plt
>>> import numpy as np
>>> ax = plot_logo(np.array([[0.7, 0.1, 0.1, 0.1], [0.0, 0.0, 1.0, 0.0]]))
>>> len(ax.patches), [t.get_text() for t in ax.get_xticklabels()]
(5, ['1', '2'])
>>> plt.close(ax.figure)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.font_manager import FontProperties
from matplotlib.patches import PathPatch
from matplotlib.textpath import TextPath
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import Affine2D
from numpy.typing import ArrayLike

from .alphabet import ALPHABET, kmer_string
from .errors import InputError
from .motifs.motif import Motif

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from .poim import Poim

#: classic nucleotide colours: A green, C blue, G orange, T red
LOGO_COLORS = {"A": "#109648", "C": "#255c99", "G": "#f7a51c", "T": "#d62839"}

_POSITION_LABEL = "start position (1-based)"
_LETTER_WIDTH = 0.9


def new_axes(figsize: tuple[float, float]) -> Axes:
    """One pyplot axes in a new figure of ``figsize`` inches, constrained layout.

    Parameters
    ----------
    figsize : tuple of float
        Width and height in inches.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def place_text(value: float) -> str:
    """A motif's position or spread as every figure and the report show it.

    Rounded once to the 3 decimals ``summary.json`` keeps, then shown with
    one, so a logo's title and the report's table never differ by a last
    digit (7.35004 is 7.35 in the summary; shown 7.3 in both).

    Parameters
    ----------
    value : float
        The position or spread.

    Examples
    --------
    >>> place_text(7.35004), place_text(20.4)
    ('7.3', '20.4')
    """
    return f"{round(float(value), 3):.1f}"


def colorbar_label(symbol: str) -> str:
    """A heatmap's colourbar label: the symbol, then what it measures.

    On two lines, so it fits beside the shortest heatmap (k = 1, four rows).

    Parameters
    ----------
    symbol : str
        Matplotlib mathtext of the quantity, e.g. ``"$Q_1(z, j)$"``.
    """
    return f"{symbol}\nchange of the SVM score"


def _integer_ticks(axis) -> None:
    axis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))


def open_frame(ax: Axes) -> None:
    """Hide the top and right spines: the frame of every line and bar plot here.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes to restyle.
    """
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


# --------------------------------------------------------------------------- #
# sequence logo
# --------------------------------------------------------------------------- #
def letter_glyphs() -> dict[str, TextPath]:
    """The outlines of A, C, G and T (DejaVu Sans bold, size 1) for logos.

    Returns
    -------
    dict of str to matplotlib.textpath.TextPath
    """
    font = FontProperties(family="DejaVu Sans", weight="bold")
    return {a: TextPath((0.0, 0.0), a, size=1.0, prop=font) for a in ALPHABET}


def draw_letter(
    ax: Axes,
    glyphs: Any,
    letter: int,
    x: float,
    bottom: float,
    height: float,
    palette: Any,
) -> None:
    """One glyph stretched into the box [x -+ width/2] x [bottom, bottom + height].

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    glyphs : dict of str to matplotlib.textpath.TextPath
        The letters' outlines (`letter_glyphs`).
    letter : int
        0-3 for A, C, G, T.
    x, bottom, height : float
        The box: centre, lower edge and height.
    palette : sequence of colours
        One colour per letter.
    """
    glyph = glyphs[ALPHABET[letter]]
    box = glyph.get_extents()
    place = (
        Affine2D()
        .translate(-box.x0, -box.y0)
        .scale(_LETTER_WIDTH / box.width, height / box.height)
        .translate(x - _LETTER_WIDTH / 2, bottom)
    )
    ax.add_patch(
        PathPatch(
            place.transform_path(glyph),
            facecolor=palette[ALPHABET[letter]],
            edgecolor="none",
        )
    )


def plot_logo(
    motif_or_pwm: Motif | np.ndarray,
    ax: Axes | None = None,
    kind: str = "information",
    colors: Mapping[str, object] | None = None,
    title: str | None = None,
) -> Axes:
    """Draw a sequence logo: letters stacked per motif column.

    Parameters
    ----------
    motif_or_pwm : Motif or array-like of shape (m, 4)
        A motif, or letter probabilities per column (columns A, C, G, T, rows
        summing to 1).
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    kind : {"information", "probability"}
        Letter heights: ``p(a) * IC`` in bits with ``IC = 2 - H(column)``
        (classic information logo, y from 0 to 2 bits), or ``p(a)``.
    colors : mapping of letter to matplotlib colour, optional
        Overrides of `LOGO_COLORS` (A green, C blue, G orange, T red).
    title : str, optional
        Axes title. Default: for a Motif its name, consensus and 1-based
        position; none for an array. Give ``""`` for no title.

    Returns
    -------
    matplotlib.axes.Axes

    Notes
    -----
    Each letter is a filled glyph outline (`matplotlib.textpath.TextPath` in a
    `matplotlib.patches.PathPatch`) stretched to its height, so ``ax.patches``
    holds one patch per letter of positive height. In each column the letters
    are stacked by height, smallest at the bottom. X ticks are the motif
    columns 1..m.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> motif = Motif(np.eye(4)[[2, 0, 3, 3]], position=11.0, spread=0.5,
    ...               name="m1")
    >>> ax = plot_logo(motif)
    >>> len(ax.patches), ax.get_title()
    (4, 'm1  GATT  at position 11.0')
    >>> plt.close(ax.figure)
    """
    motif = (
        motif_or_pwm
        if isinstance(motif_or_pwm, Motif)
        else Motif(np.asarray(motif_or_pwm, dtype=np.float64), math.nan, math.nan)
    )
    if kind not in ("information", "probability"):
        raise InputError(f"kind must be 'information' or 'probability', got {kind!r}")
    palette = dict(LOGO_COLORS)
    if colors is not None:
        unknown = set(colors) - set(ALPHABET)
        if unknown:
            raise InputError(
                f"colors has keys {sorted(unknown)} but only A, C, G, T are letters"
            )
        palette.update(colors)
    pwm = motif.pwm
    heights = pwm * motif.information[:, None] if kind == "information" else pwm
    heights = np.clip(heights, 0.0, None)
    m = motif.length
    if ax is None:
        ax = new_axes((max(2.5, 0.55 * m + 1.0), 2.4))

    glyphs = letter_glyphs()
    for column in range(m):
        bottom = 0.0
        for letter in np.argsort(heights[column], kind="stable"):
            height = float(heights[column, letter])
            if height <= 0.0:
                continue
            draw_letter(ax, glyphs, letter, column + 1, bottom, height, palette)
            bottom += height

    ax.set_xlim(0.5, m + 0.5)
    ax.set_ylim(0.0, 2.0 if kind == "information" else 1.0)
    ax.set_xticks(range(1, m + 1))
    ax.set_xlabel("motif column")
    ax.set_ylabel("bits" if kind == "information" else "probability")
    open_frame(ax)
    if title is None and isinstance(motif_or_pwm, Motif):
        title = f"{motif.name}  {motif.consensus}"
        if math.isfinite(motif.position):
            title += f"  at position {place_text(motif.position)}"
    if title:
        ax.set_title(title)
    return ax


def logo_figure(motif: Motif) -> Figure:
    """A figure of one motif's logo, titled with its IUPAC consensus and place.

    What ``poimkit motifs --logos`` and the run report save: the title gives
    the motif's name, IUPAC consensus and 1-based position and spread, or
    "anywhere" for a motif of a position-free model.

    Parameters
    ----------
    motif : Motif
        The motif.

    Returns
    -------
    matplotlib.figure.Figure
        Not registered with pyplot: save it, nothing to close.

    Examples
    --------
    >>> motif = Motif(np.eye(4)[[2, 0, 3, 3]], position=11.0, spread=0.5,
    ...               name="m1")
    >>> logo_figure(motif).axes[0].get_title()
    'm1: GATT at 11.0 (spread 0.5)'
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(0.5 * motif.length + 1.5, 2.2), layout="constrained")
    where = (
        f"at {place_text(motif.position)} (spread {place_text(motif.spread)})"
        if math.isfinite(motif.position)
        else "anywhere"
    )
    plot_logo(motif, ax=fig.add_subplot(), title=f"{motif.name}: {motif.iupac} {where}")
    return fig


# --------------------------------------------------------------------------- #
# POIM views
# --------------------------------------------------------------------------- #


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
    _integer_ticks(ax.xaxis)
    ax.set_xlim(0.5, n_pos + 0.5)
    ax.set_xlabel(_POSITION_LABEL)
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
    _integer_ticks(ax.xaxis)
    _integer_ticks(ax.yaxis)
    ax.set_xlim(0.5, length + 0.5)
    ax.set_ylim(n_orders + 0.5, 0.5)
    ax.set_xlabel(_POSITION_LABEL)
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
    _integer_ticks(ax.xaxis)
    ax.set_xlim(0.5, poim.length + 0.5)
    ax.set_xlabel(_POSITION_LABEL)
    ax.set_ylabel(
        "$W_l(j)$ / its maximum" if relative else "weight mass $W_l(j)$ (score units)"
    )
    ax.set_title("POIM weight mass")
    ax.legend(title="k-mer length", fontsize="small")
    open_frame(ax)
    return ax


# --------------------------------------------------------------------------- #
# ROC curve
# --------------------------------------------------------------------------- #
def plot_roc(
    y_true: ArrayLike,
    scores: ArrayLike,
    ax: Axes | None = None,
    label: str | None = None,
    color: str = "#255c99",
) -> Axes:
    """ROC curve of scores against binary labels, with the AUC in the legend.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels; the larger of two values is the positive class.
    scores : array-like of shape (n,)
        Higher means more positive (e.g. out-of-fold decision values).
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    label : str, optional
        Legend label of the curve; the AUC is appended.
    color : str
        The curve's colour (draw several curves on one ``ax``).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_roc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> ax.get_legend().get_texts()[0].get_text()
    'AUC 0.750'
    >>> plt.close(ax.figure)
    """
    from sklearn.metrics import roc_auc_score, roc_curve

    positive = _positive_class(y_true, "ROC")
    fpr, tpr, _ = roc_curve(positive, scores)
    auc = roc_auc_score(positive, scores)
    ax = ax if ax is not None else new_axes((4.2, 4.0))
    text = f"AUC {auc:.3f}" if label is None else f"{label} (AUC {auc:.3f})"
    ax.plot(fpr, tpr, color=color, lw=1.8, label=text)
    return _unit_square(ax, "false positive rate", "true positive rate")


def _positive_class(y_true: ArrayLike, what: str) -> np.ndarray:
    """True for the larger of exactly two labels (else InputError)."""
    y_true = np.asarray(y_true)
    classes = np.unique(y_true)
    if classes.size != 2:
        raise InputError(f"{what} needs two classes, got {classes.size}")
    return y_true == classes[1]


def _unit_square(ax: Axes, xlabel: str, ylabel: str) -> Axes:
    """The diagonal, limits, labels and legend of a plot on [0, 1]²."""
    ax.plot([0, 1], [0, 1], color="0.6", lw=1, ls="--")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.01)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_aspect("equal")
    ax.legend(loc="lower right", frameon=False)
    return ax


def plot_reliability(
    y_true: ArrayLike, probabilities: ArrayLike, ax: Axes | None = None, bins: int = 10
) -> Axes:
    """Reliability diagram: observed share of positives against the probability.

    Sequences are binned by their probability (equal counts per bin); each
    bin's mean probability is plotted against the share of its sequences in
    the positive class. A calibrated model lies on the diagonal. The Brier
    score (mean squared error of the probabilities) is in the legend.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels; the larger of two values is the positive class.
    probabilities : array-like of shape (n,)
        Probabilities of the positive class (e.g. out of fold).
    ax : matplotlib.axes.Axes, optional
        Where to draw; default a new figure.
    bins : int
        Number of bins.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_reliability([0, 0, 1, 1], [0.1, 0.3, 0.6, 0.9], bins=2)
    >>> ax.get_legend().get_texts()[0].get_text()
    'Brier 0.068'
    >>> plt.close(ax.figure)
    """
    from sklearn.calibration import calibration_curve

    positive = _positive_class(y_true, "a reliability diagram")
    p = np.asarray(probabilities, dtype=np.float64)
    observed, predicted = calibration_curve(
        positive, p, n_bins=bins, strategy="quantile"
    )
    brier = float(np.mean((p - positive) ** 2))
    ax = ax if ax is not None else new_axes((4.2, 4.0))
    label = f"Brier {brier:.3f}"
    ax.plot(predicted, observed, "o-", color="#255c99", lw=1.8, label=label)
    return _unit_square(ax, "predicted probability (out of fold)", "share of positives")


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
    _integer_ticks(ax.xaxis)
    ax.set_xlabel("position (1-based)")
    ax.set_ylabel("$Q_1(z, j)$")
    ax.set_title("nucleotide importance: up raises the score, down lowers it")
    open_frame(ax)
    return ax
