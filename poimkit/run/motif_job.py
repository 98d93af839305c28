"""The library job of ``poimkit motifs``: motifs of POIMs, or read; compared; written.

`check_motif_outputs` checks the inputs and outputs before any work;
`found_motifs` extracts the motifs of a POIM file (with their sites' evidence
when sequences are given) or reads motifs found before; `motif_matches`
compares them with known motifs; `write_motif_files` writes the motifs, their
sites, logos and matches together, or none of them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import InputError

__all__ = [
    "MATCH_HEADER",
    "check_motif_outputs",
    "found_motifs",
    "is_motif_file",
    "motif_matches",
    "write_motif_files",
]

#: the columns of a motif's matches with known motifs
MATCH_HEADER = ["motif", "match", "score", "offset", "strand", "overlap", "p_value"]

#: a file's name
PathLike = str | os.PathLike


def check_motif_outputs(
    source: PathLike,
    output: PathLike | None = None,
    *,
    sites: PathLike | None = None,
    matches: PathLike | None = None,
    logos: PathLike | None = None,
    labeled: bool = False,
    compare: bool = False,
) -> bool:
    """Check the job's files before any work; whether ``source`` holds motifs.

    Parameters
    ----------
    source : str or path-like
        A POIM ``.npz``, or a motif file (a suffix of
        `poimkit.motifs.formats.FORMATS`).
    output : str or path-like, optional
        The motifs written (required for a POIM); its suffix names the format.
    sites, matches : str or path-like, optional
        The sites' BED (needs ``labeled``) and the matches' table (needs
        ``compare``).
    logos : str or path-like, optional
        A folder of logos: it, or the folder it goes into, writable.
    labeled : bool, default=False
        Labeled sequences are given.
    compare : bool, default=False
        Known motifs are given.

    Returns
    -------
    bool
        True if ``source`` is a motif file (motifs found before).

    Raises
    ------
    InputError
        For a combination that does not go together, an unknown suffix, or a
        place that is not writable.
    """
    from ..io.outdir import check_writable
    from ..motifs.formats import FORMATS

    if matches and not compare:
        raise InputError("--matches needs --compare SOURCE")
    if sites and not labeled:
        raise InputError(
            "--sites needs the labeled sequences (--pos/--neg or --fasta/--labels)"
        )
    motif_file = is_motif_file(source)
    if motif_file and (labeled or sites):
        raise InputError(
            f"{source} holds motifs found before: sequences and --sites go with "
            "a POIM.npz input"
        )
    if not motif_file and not output:
        raise InputError("-o/--output FILE is required with a POIM.npz input")
    if output and Path(output).suffix.lower() not in FORMATS.values():
        raise InputError(
            f"cannot tell the motif format of {output}: use the suffix "
            f"{', '.join(sorted(set(FORMATS.values())))}"
        )
    check_writable(output, sites, matches)
    if logos:
        logos = Path(logos)
        if not logos.is_dir():
            check_writable(logos)
        elif not os.access(logos, os.W_OK):
            raise InputError(f"cannot write logos into {logos}: it is not writable")
    return motif_file


def is_motif_file(path: PathLike) -> bool:
    """Whether ``path`` names a motif file (its suffix is one of ``FORMATS``').

    Parameters
    ----------
    path : str or path-like
        A file name.

    Returns
    -------
    bool
    """
    from ..motifs.formats import FORMATS

    return Path(path).suffix.lower() in FORMATS.values()


def found_motifs(
    source: PathLike,
    read_sequences: Callable[[bool], tuple] | None = None,
    *,
    max_motifs: int = 5,
    n_restarts: int = 5,
    seed: int | None = 0,
    min_enrichment: float | None = None,
    progress: bool = False,
) -> tuple[list, Any, Any]:
    """The motifs of ``source``: read from a motif file, or extracted from POIMs.

    Parameters
    ----------
    source : str or path-like
        A motif file (read as it is) or a POIM ``.npz``.
    read_sequences : callable, optional
        ``read_sequences(any_length)`` gives ``(ids, X, y)``, the labeled
        sequences whose sites test the motifs (``any_length``: the POIM is a
        position-free model's). None: PWMs fitted to the POIMs alone.
    max_motifs, n_restarts : int
        `poimkit.extract_motifs`'s (``n_restarts`` without sequences).
    seed : int or None, default=0
        Its ``random_state``.
    min_enrichment : float, optional
        Its ``min_enrichment`` (with sequences); None: its default.
    progress : bool, default=False
        Progress bars.

    Returns
    -------
    motifs : list of Motif
    ids, y : list of str and numpy.ndarray, or None
        The sequences' ids and labels (None without sequences).
    """
    from ..motifs import extract_motifs
    from ..motifs.formats import read_motifs
    from ..poim import Poim

    if is_motif_file(source):
        return read_motifs(source), None, None
    poim = Poim.load(source)
    if read_sequences is None:
        found = extract_motifs(
            poim,
            max_motifs=max_motifs,
            n_restarts=n_restarts,
            random_state=seed,
            progress=progress,
        )
        return found, None, None
    ids, X, y = read_sequences(poim.position_free)
    enrichment = {} if min_enrichment is None else {"min_enrichment": min_enrichment}
    found = extract_motifs(
        poim,
        max_motifs=max_motifs,
        sequences=X,
        labels=y,
        random_state=seed,
        progress=progress,
        **enrichment,
    )
    return found, ids, y


def motif_matches(
    found: list, known: list, top: int = 1, progress: bool = False
) -> list[tuple]:
    """Each found motif's ``top`` best matches among ``known`` (`MATCH_HEADER`).

    Parameters
    ----------
    found, known : list of Motif
        The motifs and the known ones (`poimkit.motifs.compare.known_motifs`).
    top : int, default=1
        Matches per motif.
    progress : bool, default=False
        A bar over the motifs.

    Returns
    -------
    list of tuple
        One row per match, as `MATCH_HEADER` names the columns.
    """
    from tqdm.auto import tqdm

    from ..motifs.compare import match_motifs

    return [
        (
            m.query,
            m.target,
            round(m.score, 4),
            m.offset,
            m.strand,
            m.overlap,
            f"{m.p_value:.3g}",
        )
        for motif in tqdm(found, desc="comparing", unit="motif", disable=not progress)
        for m in match_motifs(motif, known, top=top)
    ]


def write_motif_files(
    found: list,
    output: PathLike | None = None,
    *,
    sites: PathLike | None = None,
    ids: Any = None,
    y: Any = None,
    logos: PathLike | None = None,
    matches: PathLike | None = None,
    match_rows: list[tuple] | None = None,
) -> None:
    """Write the motifs, their sites, logos and matches: all of them, or none.

    Parameters
    ----------
    found : list of Motif
        The motifs.
    output : str or path-like, optional
        Their file (the suffix names the format).
    sites : str or path-like, optional
        Their sites' BED, with the sequences' ``ids`` and labels ``y``.
    ids, y : optional
        As `found_motifs` gives them.
    logos : str or path-like, optional
        A folder: one PNG per motif.
    matches : str or path-like, optional
        The table of ``match_rows`` (`motif_matches`).
    match_rows : list of tuple, optional
        The matches.
    """
    from ..io import commit_together, write_table
    from ..motifs.formats import write_motifs, write_sites

    with commit_together():  # all output files appear, or none
        if output:
            write_motifs(output, found)
            if sites:
                write_sites(sites, found, ids, y)
        if logos:
            _write_logos(logos, found)
        if matches:
            write_table(matches, MATCH_HEADER, match_rows or [])


def _write_logos(folder: PathLike, found: list) -> None:
    from ..io import atomic_path, output_folder
    from ..plot import logo_figure

    out = output_folder(folder)
    for motif in found:
        with atomic_path(out / f"{motif.name}.png") as tmp:
            logo_figure(motif).savefig(tmp, dpi=150, format="png")
