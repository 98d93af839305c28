"""Sequence logos: letters stacked by information, drawn as glyphs.

Positions shown are **1-based**: the first letter of a sequence is position 1.

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
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.font_manager import FontProperties
from matplotlib.patches import PathPatch
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D

from ..alphabet import ALPHABET
from ..errors import InputError
from ..motifs.motif import Motif

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


from .axes import new_axes, open_frame, place_text

#: classic nucleotide colours: A green, C blue, G orange, T red
LOGO_COLORS = {"A": "#109648", "C": "#255c99", "G": "#f7a51c", "T": "#d62839"}

_LETTER_WIDTH = 0.9


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
