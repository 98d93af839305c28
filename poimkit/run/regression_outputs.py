"""The outputs of a regression run: its motifs, their files, the predictions plot.

`regression_motifs` finds a regressor's motifs when its cross-validation
says it predicts better than chance; `write_motif_outputs` writes
``motifs.meme``, ``sites.tsv`` and the figures; `plot_predictions` draws the
held-out predictions against the observed targets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..io.outdir import LAYOUT

if TYPE_CHECKING:
    from .results import CVResult


def regression_motifs(
    poim: Any, codes: Any, y: np.ndarray, cv: CVResult, max_motifs: int, seed: int
) -> tuple[list, str]:
    """Motifs of a regressor and why the list is what it is: ``(motifs, note)``.

    Motifs (`poimkit.extract_motifs` with ``targets``) only when the CV
    Pearson interval lies above 0 (`CVResult.better_than_chance`): a model
    no better than chance rewards noise.

    Parameters
    ----------
    poim : Poim
        The final model's POIMs.
    codes : numpy.ndarray or 1-D object array of code arrays
        Every record.
    y : numpy.ndarray of float
        Their targets.
    cv : CVResult
        `cv_regression`'s result (no figures without cross-validation).
    max_motifs : int
        Most motifs; 0 skips them.
    seed : int
        Seed of the discovery/held-out split.

    Returns
    -------
    motifs : list of Motif
    note : str
    """
    from ..motifs import extract_motifs

    rule = (
        "holding a site shifts the held-out targets (two-sided rank test) at a "
        "false discovery rate of 5 %"
    )
    if not max_motifs:
        return [], "motif extraction was switched off (max_motifs 0)"
    if not cv.done:
        return [], (
            "no motifs reported: without cross-validation (cv 0) the model's "
            "accuracy is unknown"
        )
    if not cv.better_than_chance():
        low, high = cv.figure("interval")
        return [], (
            "no motifs reported: the model predicts no better than chance (the "
            f"95 % interval of its cross-validated Pearson correlation, {low:.3f} "
            f"to {high:.3f}, does not lie above 0), so whatever it rewards may "
            "be noise"
        )
    motifs = extract_motifs(
        poim,
        max_motifs=max_motifs,
        sequences=list(codes) if poim.position_free else codes,
        targets=y,
        random_state=seed,
    )
    if not motifs:
        return [], f"no motif passed the test: none where {rule}"
    return motifs, f"{len(motifs)} motif(s) passed the test: {rule}"


def write_motif_outputs(
    staged: Any, poim: Any, motifs: list, ids: list, codes: Any, y: np.ndarray
) -> list[str]:
    """``motifs.meme``, ``sites.tsv`` and ``figures/`` (POIMs, logos): names.

    Parameters
    ----------
    staged : pathlib.Path
        The run's (staged) folder.
    poim : Poim
        The final model's POIMs.
    motifs : list of Motif
        The motifs found.
    ids : list of str
        Record ids.
    codes : numpy.ndarray or list of numpy.ndarray
        The records.
    y : numpy.ndarray
        Their targets.
    """
    from ..motifs.discovery import background_letters
    from ..motifs.formats import write_meme, write_sites
    from .figures import write_figures

    write_meme(staged / LAYOUT.motifs, motifs, background_letters(poim.background))
    write_sites(staged / LAYOUT.sites, motifs, ids, targets=y)
    return write_figures(
        staged / LAYOUT.figures,
        poim,
        motifs,
        None,
        None,
        lengths=[len(x) for x in codes],
    )


def plot_predictions(path: Any, observed: Any, predicted: Any) -> None:
    """Scatter of held-out predictions against the observed targets, with y = x.

    Parameters
    ----------
    path : str or pathlib.Path
        The PNG.
    observed, predicted : numpy.ndarray
        The targets and their held-out predictions.
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4.5, 4.5))
    ax = fig.add_subplot()
    ax.scatter(observed, predicted, s=8, alpha=0.6, linewidths=0)
    low = float(min(observed.min(), predicted.min()))
    high = float(max(observed.max(), predicted.max()))
    ax.plot([low, high], [low, high], color="0.5", lw=1, ls="--")
    ax.set_xlabel("observed target")
    ax.set_ylabel("predicted (held out, cross-validation)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
