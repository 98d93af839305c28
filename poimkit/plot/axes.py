"""What every figure of the package shares: new axes, ticks, labels and frames."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from matplotlib.ticker import MaxNLocator

if TYPE_CHECKING:
    from matplotlib.axes import Axes


POSITION_LABEL = "start position (1-based)"


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


def integer_ticks(axis: Any) -> None:
    """Ticks at whole numbers only (1, 2, 5 or 10 apart).

    Parameters
    ----------
    axis : matplotlib.axis.Axis
        The x or y axis of an Axes.
    """
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
