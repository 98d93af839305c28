"""Letter contributions drawn as a logo: each letter as tall as what it adds.

A letter's contribution (a variant's ref and alt windows, an explained
record) is drawn with that height, below the axis when negative, with the
glyphs of `poimkit.plot.plot_logo`; the column of interest (the variant) is
drawn at 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .axes import open_frame
from .logos import LOGO_COLORS, draw_letter, letter_glyphs

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def plot_contributions(
    x: np.ndarray, contribution: np.ndarray, anchor: int, ax: Axes, title: str = ""
) -> Axes:
    """Draw letter x[p] with height ``contribution[p]`` at ``p - anchor``.

    Parameters
    ----------
    x : numpy.ndarray of uint8
        The window's letter codes.
    contribution : numpy.ndarray of float64
        Per-letter contributions (same length).
    anchor : int
        Column of the variant (drawn at 0, marked by a line).
    ax : matplotlib.axes.Axes
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
        One patch per letter with a non-zero contribution.
    """
    glyphs = letter_glyphs()
    for p, (letter, height) in enumerate(
        zip(x.tolist(), contribution.tolist(), strict=True)
    ):
        if height == 0.0:
            continue
        bottom = min(height, 0.0)
        draw_letter(ax, glyphs, letter, p - anchor, bottom, abs(height), LOGO_COLORS)
    span = float(np.abs(contribution).max()) if contribution.size else 1.0
    span = span or 1.0
    ax.set_xlim(-anchor - 0.5, x.size - anchor - 0.5)
    ax.set_ylim(-1.1 * span, 1.1 * span)
    ax.axhline(0.0, color="0.3", lw=0.5)
    ax.axvline(0.0, color="0.6", lw=0.5, ls=":")
    ax.set_ylabel("contribution")
    open_frame(ax)
    if title:
        ax.set_title(title, fontsize=9)
    return ax
