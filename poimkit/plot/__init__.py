"""Figures: sequence logos, POIM heatmaps, differential POIMs, curves, and more.

Every function draws on the Axes it is given (or on a new figure made with
`matplotlib.pyplot.subplots` when ``ax`` is None) and returns that Axes. Nothing
here changes matplotlib's global settings or chooses a backend. Positions
shown are **1-based**: the first letter of a sequence is position 1. Modules:
`logos`, `contributions` (letters as tall as what they add), `poims`
(positional models' POIM figures), `position_free` (k-mer importance anywhere,
where sites lie), `curves` (ROC, reliability) and `axes` (what they share).
"""

from .axes import (
    POSITION_LABEL,
    colorbar_label,
    integer_ticks,
    new_axes,
    open_frame,
    place_text,
)
from .contributions import plot_contributions
from .curves import plot_reliability, plot_roc
from .interactions import plot_interactions
from .logos import LOGO_COLORS, draw_letter, letter_glyphs, logo_figure, plot_logo
from .poims import (
    plot_differential,
    plot_nucleotide_importance,
    plot_poim_heatmap,
    plot_weight_mass,
)
from .position_free import plot_kmer_importance, plot_site_positions, site_offsets

__all__ = [
    "LOGO_COLORS",
    "POSITION_LABEL",
    "colorbar_label",
    "draw_letter",
    "integer_ticks",
    "letter_glyphs",
    "logo_figure",
    "new_axes",
    "open_frame",
    "place_text",
    "plot_contributions",
    "plot_differential",
    "plot_interactions",
    "plot_kmer_importance",
    "plot_logo",
    "plot_nucleotide_importance",
    "plot_poim_heatmap",
    "plot_reliability",
    "plot_roc",
    "plot_site_positions",
    "plot_weight_mass",
    "site_offsets",
]
