"""The figures of a run folder: POIM heatmaps, logos, ROC and reliability curves."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..motifs import Motif
    from ..poim import Poim

#: margins of the stacked positional figures, in inches: right (colourbar
#: and its two-line label, or weight mass's legend), bottom, top; the gap
#: between plot and colourbar and the colourbar's width
_RIGHT, _BOTTOM, _TOP, _GAP, _BAR = 1.45, 0.6, 0.35, 0.15, 0.15


#: colours of the ROC curves: the SVM, the motif model, the stack
ROC_COLORS = ("#255c99", "#c2571a", "#3a8a3a")


def roc_curves(
    cv: dict, trained: str = "SVM"
) -> dict[str, tuple[np.ndarray, float]] | None:
    """The out-of-fold scores `write_figures` draws and their AUCs, by label.

    Each curve pools its folds' scores; the AUC in its legend is the one the
    summary and the report give, the mean of the folds' own AUCs.

    Parameters
    ----------
    cv : CVResult
        `cross_validate`'s result.
    trained : str
        The trained model's name in the legend ("SVM", or "CNN").

    Returns
    -------
    dict of str to (numpy.ndarray, float), or None
        The SVM's (CNN's), and the motif model's and the stack's where
        computed; None without cross-validation.
    """
    if cv.scores is None:
        return None
    models = cv.models or {"svm": cv.figures}
    curves = {trained: (cv.scores, models["svm"]["cv_auc"])}
    if cv.motif_scores is not None:
        curves["motif model"] = (cv.motif_scores, models["motifs"]["cv_auc"])
        curves["stack"] = (cv.stack_scores, models["stack"]["cv_auc"])
    return curves


def write_figures(
    folder: Path,
    poim: Poim,
    motifs: list[Motif],
    y: np.ndarray,
    oof_scores: dict[str, np.ndarray] | None,
    lengths: np.ndarray | None = None,
    probabilities: np.ndarray | None = None,
) -> list[str]:
    """PNGs: ROC, POIMs per order, nucleotide logo, differential POIM, mass, logos.

    For a position-free model (`poimkit.GkmSVC`), whose POIMs barely vary
    with position, the positional figures are replaced by the position-free
    importance of the strongest k-mers (``kmer_importance.png``) and, with
    ``lengths`` and motifs, where their sites lie in the records
    (``site_positions.png``).

    Parameters
    ----------
    folder : pathlib.Path
        New folder for the PNGs (created here).
    poim : Poim
        The model's POIMs.
    motifs : list of Motif
        The motifs reported (a logo each).
    y : numpy.ndarray
        Labels, for the ROC curve.
    oof_scores : dict of str to numpy.ndarray, or None
        Out-of-fold scores of each model, by its label in the ROC figure
        (`roc_curves`; None without cross-validation: no ROC figure).
    lengths : numpy.ndarray, optional
        Length of every record (the rows the motifs' sites index).
    probabilities : numpy.ndarray, optional
        The chosen model's out-of-fold probabilities: a reliability diagram
        (``reliability.png``).

    Returns
    -------
    list of str
        The file names written.
    """
    from matplotlib.figure import Figure

    from ..plot import (
        logo_figure,
        plot_differential,
        plot_nucleotide_importance,
        plot_poim_heatmap,
        plot_reliability,
        plot_roc,
        plot_weight_mass,
    )

    folder.mkdir()
    written = []

    def save(fig: Figure, name: str) -> None:
        fig.savefig(folder / name, dpi=120)
        written.append(name)

    if oof_scores:  # None without cross-validation
        fig = Figure(figsize=(4.4, 4.2), layout="constrained")
        ax = fig.add_subplot()
        for (label, (scores, auc)), color in zip(
            oof_scores.items(), ROC_COLORS, strict=False
        ):
            plot_roc(y, scores, ax=ax, label=label, color=color, auc=auc)
        save(fig, "roc.png")
    if probabilities is not None:
        fig = Figure(figsize=(4.4, 4.2), layout="constrained")
        plot_reliability(y, probabilities, ax=fig.add_subplot())
        save(fig, "reliability.png")
    if poim.position_free:
        _anywhere_figures(poim, motifs, y, lengths, save)
        for motif in motifs:
            save(logo_figure(motif), f"logo_{motif.name}.png")
        return written
    wide = min(16.0, max(5.0, 0.12 * poim.length + 3))
    left = _left_margin(poim.max_order)
    for l in range(1, poim.max_order + 1):
        rows = 4**l if l <= 2 else 20
        fig, ax, cax = _track(wide, max(2.8, 0.2 * rows + 1.6), left)
        plot_poim_heatmap(poim, l, ax=ax, top=rows, cax=cax)
        ax.set_xlim(0.5, poim.length + 0.5)  # one scale: longer k-mers end sooner
        save(fig, f"poim_order_{l}.png")
    fig, ax, _ = _track(wide, 3.4, left, colourbar=False)
    plot_nucleotide_importance(poim, ax=ax)
    save(fig, "nucleotide_importance.png")
    fig, ax, cax = _track(wide, 3.2, left)
    plot_differential(poim, ax=ax, cax=cax)
    save(fig, "differential_poim.png")
    fig, ax, _ = _track(wide, 3.2, left, colourbar=False)
    plot_weight_mass(poim, ax=ax)
    # the legend beside the plot, where the others have their colourbar
    ax.legend(
        title="k-mer length",
        fontsize="small",
        loc="upper left",
        bbox_to_anchor=(1.0 + _GAP / _axes_width(fig, ax), 1.0),
        borderaxespad=0.0,
    )
    save(fig, "weight_mass.png")
    for motif in motifs:
        save(logo_figure(motif), f"logo_{motif.name}.png")
    return written


def _left_margin(max_order: int) -> float:
    """Room for the y label and the longest k-mer's tick label, in inches."""
    return 0.55 + 0.085 * max(max_order, 6)


def _axes_width(fig, ax) -> float:
    return ax.get_position().width * fig.get_figwidth()


def _track(wide: float, high: float, left: float, colourbar: bool = True):
    """A positional figure with fixed margins: ``(figure, axes, colourbar axes)``.

    Every stacked positional figure (POIMs, nucleotide importance,
    differential POIM, weight mass) has the same width and the same margins,
    so their position axes line up in the report; figures without a
    colourbar leave its room empty (or hold a legend). The colourbar axes is
    None with ``colourbar=False``.
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(wide, high))
    bottom, top = _BOTTOM / high, 1 - _TOP / high
    x0, x1 = left / wide, 1 - _RIGHT / wide
    ax = fig.add_axes((x0, bottom, x1 - x0, top - bottom))
    if not colourbar:
        return fig, ax, None
    cax = fig.add_axes((x1 + _GAP / wide, bottom, _BAR / wide, top - bottom))
    return fig, ax, cax


#: k-mer lengths in ``kmer_importance.png`` (the longest ones)
_ANYWHERE_ORDERS = 3


def _anywhere_figures(poim, motifs, y, lengths, save) -> None:
    """A position-free model's figures: k-mer importance, where sites lie."""
    from matplotlib.figure import Figure

    from ..plot.position_free import plot_kmer_importance, plot_site_positions

    orders = range(max(1, poim.max_order - _ANYWHERE_ORDERS + 1), poim.max_order + 1)
    fig = Figure(figsize=(4.0 * len(orders), 5.0), layout="constrained")
    for ax, l in zip(
        fig.subplots(1, len(orders), squeeze=False)[0], orders, strict=True
    ):
        plot_kmer_importance(poim, l, ax=ax)
    save(fig, "kmer_importance.png")
    if motifs and lengths is not None:
        fig = Figure(figsize=(7.0, 3.4), layout="constrained")
        plot_site_positions(motifs, lengths, y, ax=fig.add_subplot())
        save(fig, "site_positions.png")
