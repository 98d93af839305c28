"""Contribution logos of a variant: what each letter adds to the ref and alt score.

A letter's contribution is the sum of the contributions of the k-mers that
cover it, each k-mer's weight shared equally by its k letters; the letters of
a window thus add up to its score minus the bias (exact, from the explicit
weights). `poimkit.plot.plot_contributions` draws each letter with that
height.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..genome.vcf import VariantTable


def variant_figure(
    engine: object,
    R: np.ndarray,
    A: np.ndarray,
    anchor: int,
    name: str,
    effect: float,
) -> Figure:
    """Ref and alt contribution logos of one variant, one above the other.

    Parameters
    ----------
    engine
        The model's effect engine (`poimkit.variants.effects.effect_engine`).
    R, A : numpy.ndarray of uint8
        Reference and alternative windows.
    anchor : int
        Column of the variant in both.
    name : str
        Variant name for the title.
    effect : float
        Its effect, for the title.

    Returns
    -------
    matplotlib.figure.Figure
        Not registered with pyplot: save it, nothing to close.
    """
    from matplotlib.figure import Figure

    from ..plot import plot_contributions

    cr = engine.contributions(R)
    ca = engine.contributions(A)
    # a window of hundreds of letters is unreadable: show 30 letters each side
    lo = max(0, anchor - 30)
    hi_r = min(R.size, anchor + 31)
    hi_a = min(A.size, anchor + 31)
    width = max(hi_r, hi_a) - lo
    fig = Figure(figsize=(max(4.0, 0.18 * width + 1.5), 4.2), layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True, sharey=True)
    plot_contributions(
        R[lo:hi_r], cr[lo:hi_r], anchor - lo, top, f"{name}: ref (effect {effect:.4g})"
    )
    plot_contributions(A[lo:hi_a], ca[lo:hi_a], anchor - lo, bottom, "alt")
    bottom.set_xlabel("position relative to the variant")
    span = max(np.abs(cr[lo:hi_r]).max(initial=0), np.abs(ca[lo:hi_a]).max(initial=0))
    if span > 0:
        top.set_ylim(-1.1 * span, 1.1 * span)
    return fig


def write_plots(
    folder: str,
    engine: object,
    table: VariantTable,
    best: list[tuple],
    effect: np.ndarray,
) -> list[str]:
    """A PNG per variant of ``best`` ((|effect|, row, R, A, anchor)), strongest first.

    Parameters
    ----------
    folder : str
        Where the PNGs go (made if missing).
    engine : object
        `poimkit.variants.effects.effect_engine` of the model.
    table : VariantTable
        The variants (their ids name the files).
    best : list of tuple
        ``(|effect|, row, R, A, anchor)`` of the variants to draw.
    effect : numpy.ndarray of float64
        Effect of every variant, by row.

    Files are named ``NNN_ID.png`` (rank, id with unsafe characters replaced)
    and written through `poimkit.io.atomic_path`.

    Returns
    -------
    list of str
        The files written.
    """
    from ..io import atomic_path, output_folder

    out = output_folder(folder)
    names = []
    for rank, (_, row, R, A, anchor) in enumerate(best, 1):
        vid = table.id[row]
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", vid)[:80]
        path = out / f"{rank:03d}_{safe}.png"
        title = variant_title(table, row)
        fig = variant_figure(engine, R, A, int(anchor), title, float(effect[row]))
        with atomic_path(path) as tmp:
            fig.savefig(tmp, dpi=120, format="png")
        names.append(str(path))
    return names


def variant_title(table: Any, row: int) -> str:
    """``chrom:pos REF>ALT`` of a VCF variant (and its ID when the VCF gives one).

    Parameters
    ----------
    table : VariantTable or PairTable
        The variants; sequence pairs are named by their id.
    row : int
        The variant's row.

    Returns
    -------
    str
    """
    if not hasattr(table, "chrom"):
        return table.id[row]
    chrom, pos = table.chrom[row], int(table.pos[row])
    ref, alt = table.ref[row], table.alt[row]
    text = f"{chrom}:{pos} {ref}>{alt}"
    made = f"{chrom}:{pos}:{ref}:{alt}"  # read_vcf's id for ID "."
    return text if table.id[row] == made else f"{text} ({table.id[row]})"
