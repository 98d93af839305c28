"""The files of ``poimkit explain``: modisco-lite's inputs, a bigWig, logos.

`write_modisco_inputs` writes ``ohe.npz`` and ``attr.npz`` (records x 4 x
length, the one-hot records and the hypothetical contributions, in the
``arr_0`` member modisco-lite reads). `write_bigwig` writes the per-base
contribution of windows cut from a genome at their genome positions (a
minus-strand window's letters mapped back; overlapping windows averaged).
`write_logos` draws the records of highest score as contribution logos.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..io.outdir import LAYOUT
from .attributions import Attributions


def write_modisco_inputs(folder: Path, found: Attributions) -> None:
    """Write ``ohe.npz`` and ``attr.npz`` (float32, records x 4 x length).

    Parameters
    ----------
    folder : pathlib.Path
        Where to write them.
    found : Attributions
        The records' attributions.
    """
    np.savez_compressed(folder / LAYOUT.ohe, found.ohe.astype(np.float32))
    np.savez_compressed(folder / LAYOUT.attr, found.hypothetical.astype(np.float32))


#: why a bigWig is not written, said where pyBigWig is missing
NO_BIGWIG = (
    "pyBigWig is not installed, so contributions.bw is not written (pip install "
    "pyBigWig, the bigwig extra); ohe.npz and attr.npz are"
)


def has_bigwig() -> bool:
    """Whether pyBigWig can be imported (for ``contributions.bw``)."""
    try:
        import pyBigWig  # noqa: F401
    except ImportError:
        return False
    return True


def base_values(
    found: Attributions, loci: object
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per chromosome, the positions covered and their mean contribution.

    Memory grows with the letters of the windows, not with the chromosomes'
    lengths.

    Parameters
    ----------
    found : Attributions
        The windows' attributions (in the windows' reading direction).
    loci : Loci
        Each window's chromosome, start, end and strand
        (`poimkit.genome.loci.record_loci`).

    Returns
    -------
    dict of str to (positions, values)
        0-based positions in increasing order and the mean contribution of
        the windows covering each.
    """
    contributions = found.contributions
    out = {}
    for chrom in sorted(set(loci.chrom.tolist())):
        rows = np.flatnonzero(loci.chrom == chrom)
        positions, values = [], []
        for r in rows:
            n = int(found.lengths[r])
            values.append(
                contributions[r, :n][::-1] if loci.minus[r] else contributions[r, :n]
            )
            positions.append(int(loci.start[r]) + np.arange(n))
        where, index = np.unique(np.concatenate(positions), return_inverse=True)
        total = np.bincount(index, weights=np.concatenate(values))
        out[chrom] = (where, total / np.bincount(index))
    return out


def write_bigwig(
    path: str | os.PathLike,
    found: Attributions,
    ids: Sequence[str],
    sizes: dict[str, int],
) -> None:
    """Write the windows' per-base contributions as a bigWig, at genome positions.

    Parameters
    ----------
    path : str or path-like
        The file (``contributions.bw``).
    found : Attributions
        The windows' attributions.
    ids : sequence of str
        Their record ids ``chrom:start-end(strand)``.
    sizes : dict of str to int
        Every chromosome's length (the header).
    """
    import pyBigWig

    from ..genome.loci import record_loci

    values = base_values(found, record_loci(ids))
    handle = pyBigWig.open(os.fspath(path), "w")
    try:
        handle.addHeader([(name, int(n)) for name, n in sizes.items()])
        for chrom in sizes:
            if chrom not in values:
                continue
            where, mean = values[chrom]
            handle.addEntries(
                chrom,
                where.astype(np.int64).tolist(),
                values=mean.astype(np.float64).tolist(),
                span=1,
            )
    finally:
        handle.close()


def write_logos(
    folder: Path,
    found: Attributions,
    scores: np.ndarray,
    ids: Sequence[str],
    top: int,
) -> list[str]:
    """Contribution logos of the ``top`` records of highest score.

    Parameters
    ----------
    folder : pathlib.Path
        The new folder (``logos/``).
    found : Attributions
        The records' attributions.
    scores : numpy.ndarray
        The model's score of each record.
    ids : sequence of str
        Their ids (the titles).
    top : int
        How many.

    Returns
    -------
    list of str
        The PNGs written, best first.
    """
    from matplotlib.figure import Figure

    from ..plot import plot_contributions

    folder.mkdir()
    written = []
    for rank, r in enumerate(np.argsort(-scores, kind="stable")[:top], 1):
        n = int(found.lengths[r])
        letters = found.ohe[r, :, :n].argmax(axis=0).astype(np.uint8)
        fig = Figure(figsize=(min(24.0, 0.09 * n + 2), 2.2), layout="constrained")
        plot_contributions(
            letters,
            found.contributions[r, :n],
            0,
            ax=fig.add_subplot(),
            title=f"{ids[r]}: score {scores[r]:.3g}",
        )
        name = f"{rank:03d}.png"
        fig.savefig(folder / name, dpi=100)
        written.append(name)
    return written
