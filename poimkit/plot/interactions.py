"""The figure of a motif interaction map (`poimkit.importance.interactions`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .axes import new_axes

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..importance.interactions import InteractionMap


def plot_interactions(found: InteractionMap, ax: Axes | None = None) -> Axes:
    """The interaction against the distance, one line per orientation, ± 2 errors.

    Parameters
    ----------
    found : InteractionMap
    ax : matplotlib.axes.Axes, optional
        Default a new figure.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = ax if ax is not None else new_axes(figsize=(6, 3.5))
    for i, o in enumerate(found.orientations):
        line = ax.plot(found.distances, found.interaction[i], marker="o", ms=3, label=o)
        ax.fill_between(
            found.distances,
            found.interaction[i] - 2 * found.stderr[i],
            found.interaction[i] + 2 * found.stderr[i],
            color=line[0].get_color(),
            alpha=0.2,
        )
    ax.axhline(0.0, color="grey", lw=0.8)
    ax.set_xlabel(f"letters between {found.motif_a} and {found.motif_b}")
    ax.set_ylabel("interaction I(d, o)")
    ax.legend(title="orientation", fontsize=8)
    return ax
