"""Compare found motifs with known ones (a motif file, or JASPAR offline).

Similarity of two PWMs at one alignment is the sum, over the columns they
share, of the Pearson correlation of the two columns' letter probabilities
(the column score of STAMP and Tomtom's ``pearson``), divided by the length of
the *query*. A known motif that covers the whole query with identical columns
scores 1; one that matches 3 columns of an 8-long query at best 3/8. A
uniform column has no correlation with anything and counts 0. Every shift with
at least ``min_overlap`` shared columns is tried, on both strands of the known
motif; the best alignment is reported.

Matches are ranked by this score. Each also gets a Tomtom p-value
(``p_value``; Gupta et al. 2007, "complete score", from memelite's numba
implementation): the chance that a random alignment of the query with a
column drawn from the known motifs' columns scores as well, corrected for
the offsets and strands tried. Its null is built from the known motifs
themselves, so it is meaningful for a large collection (JASPAR CORE, or at
least `MIN_TOMTOM_TARGETS` motifs) and NaN below that.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import InputError
from .formats import FORMATS, read_motifs, to_motif
from .motif import Motif

#: what ``known_motifs("jaspar")`` reads: pyjaspar's bundled CORE collection
JASPAR_COLLECTION = "CORE"
#: ... and its taxonomic group unless another is named
JASPAR_GROUP = "vertebrates"
#: fewest known motifs for a Tomtom p-value (memelite warns below this; MEME
#: Suite's tomtom below 50): its null is built from their columns
MIN_TOMTOM_TARGETS = 25


@dataclass(frozen=True)
class MotifMatch:
    """The best alignment of a query motif with one known motif.

    Parameters
    ----------
    query, target : str
        Names of the query motif and of the known motif.
    score : float
        Summed column correlation over the query length, in [-1, 1].
    offset : int
        Query column aligned with the known motif's first column (0-based;
        negative when the known motif starts before the query).
    strand : str
        ``"+"``, or ``"-"`` when the known motif's reverse complement aligns.
    overlap : int
        Number of aligned columns.
    p_value : float
        Tomtom p-value of the best alignment (see the module notes); NaN
        with fewer than `MIN_TOMTOM_TARGETS` known motifs.
    """

    query: str
    target: str
    score: float
    offset: int
    strand: str
    overlap: int
    p_value: float = float("nan")


def match_motifs(
    query: Motif,
    known: Sequence[Motif],
    top: int = 3,
    min_overlap: int = 4,
) -> list[MotifMatch]:
    """Rank known motifs by their similarity to ``query``.

    Parameters
    ----------
    query : Motif
        A motif, e.g. from `poimkit.extract_motifs`.
    known : sequence of Motif
        The motifs to search, e.g. from `known_motifs`.
    top : int, default=3
        How many matches to return, best first.
    min_overlap : int, default=4
        Fewest shared columns of an alignment (lowered to the shorter motif's
        length when that is shorter).

    Returns
    -------
    list of MotifMatch
        Best first; ties keep the order of ``known``.

    Examples
    --------
    >>> import numpy as np
    >>> gata = Motif(np.eye(4)[[2, 0, 3, 0]], position=1.0, spread=0.3, name="q")
    >>> tatc = Motif(np.eye(4)[[3, 0, 3, 1]], position=1.0, spread=0.3, name="k")
    >>> [m] = match_motifs(gata, [tatc], top=1)
    >>> m.strand, m.offset, round(m.score, 6)
    ('-', 0, 1.0)
    """
    if not isinstance(top, int | np.integer) or top < 1:
        raise InputError(f"top must be an integer >= 1, got {top!r}")
    if not isinstance(min_overlap, int | np.integer) or min_overlap < 1:
        raise InputError(f"min_overlap must be an integer >= 1, got {min_overlap!r}")
    z_query = _standard_columns(query.pwm)
    p_values = tomtom_p_values(query, known)
    matches = []
    for motif, p_value in zip(known, p_values, strict=True):
        best = None
        for strand, pwm in (("+", motif.pwm), ("-", motif.pwm[::-1, ::-1])):
            column_corr = z_query @ _standard_columns(pwm).T / 4.0
            found = _best_diagonal(column_corr, min(min_overlap, *column_corr.shape))
            if best is None or found[0] > best[0]:
                best = (*found, strand)
        total, offset, overlap, strand = best
        matches.append(
            MotifMatch(
                query=query.name,
                target=motif.name,
                score=total / query.length,
                offset=offset,
                strand=strand,
                overlap=overlap,
                p_value=float(p_value),
            )
        )
    return sorted(matches, key=lambda match: -match.score)[:top]  # stable


def tomtom_p_values(query: Motif, known: Sequence[Motif]) -> np.ndarray:
    """Tomtom p-value of the query against each known motif, both strands.

    Parameters
    ----------
    query : Motif
        The motif to look up.
    known : sequence of Motif
        The motifs to search; also the null's columns (see the module notes).

    Returns
    -------
    numpy.ndarray of float64, shape (len(known),)
        NaN for every motif when there are fewer than `MIN_TOMTOM_TARGETS`.
    """
    known = list(known)
    if len(known) < MIN_TOMTOM_TARGETS:
        return np.full(len(known), np.nan)
    from memelite import tomtom

    p_values, *_ = tomtom(
        [np.ascontiguousarray(query.pwm.T)],
        [np.ascontiguousarray(m.pwm.T) for m in known],
        n_jobs=1,
    )
    return np.asarray(p_values, dtype=np.float64)[0]


def _motif_file(text: str) -> str:
    """``text`` if it names a motif file poimkit can read, else a clear error."""
    suffixes = ", ".join(FORMATS.values())
    if not os.path.exists(text):
        raise InputError(
            f"{text!r} is neither a motif file nor a collection: give a MEME, "
            f"JASPAR or TRANSFAC file ({suffixes}; HOCOMOCO and JASPAR offer MEME "
            "downloads) or jaspar[:GROUP[:RELEASE[:COLLECTION]]]"
        )
    if Path(text).suffix.lower() not in FORMATS.values():
        raise InputError(
            f"cannot tell the motif format from the name: rename the file to end "
            f"in {suffixes}",
            path=text,
        )
    return text


def known_motifs(source: str | os.PathLike) -> list[Motif]:
    """Known motifs from a motif file or from JASPAR (offline).

    Parameters
    ----------
    source : str or path-like
        A MEME, JASPAR or TRANSFAC file (format from the suffix), or
        ``"jaspar[:GROUP[:RELEASE[:COLLECTION]]]"`` for a JASPAR collection
        that the optional package ``pyjaspar`` ships (``pip install
        ".[jaspar]"`` in a clone). GROUP is a taxonomic group (default
        `JASPAR_GROUP`; ``all`` for every group), RELEASE e.g. ``JASPAR2024``
        (default: pyjaspar's newest), COLLECTION e.g. ``UNVALIDATED``
        (default `JASPAR_COLLECTION`): ``"jaspar"``, ``"jaspar:plants"``,
        ``"jaspar:all:JASPAR2024"``.

    Returns
    -------
    list of Motif
        JASPAR motifs are named ``"MATRIX_ID NAME"`` (e.g. ``"MA0108.3 TBP"``)
        and carry their site counts.

    Raises
    ------
    InputError
        If the file cannot be read, pyjaspar is missing, or the group,
        release or collection is unknown.
    """
    text = os.fspath(source)
    if text.split(":", 1)[0].lower() != "jaspar":
        return read_motifs(_motif_file(text))
    parts = text.split(":")
    if len(parts) > 4:
        raise InputError(f"{text!r}: expected jaspar[:GROUP[:RELEASE[:COLLECTION]]]")
    _, group, release, collection = parts + [""] * (4 - len(parts))
    group = group or JASPAR_GROUP
    collection = (collection or JASPAR_COLLECTION).upper()
    try:
        from pyjaspar import jaspardb
    except ImportError:
        raise InputError(
            f"{text!r} needs the optional package pyjaspar: "
            "pip install pyjaspar (the jaspar extra); or give a MEME/JASPAR/TRANSFAC "
            "file"
        ) from None
    import pyjaspar

    from .jaspar_cache import cached_collection

    def fetch() -> list[Motif]:
        return _jaspar_motifs(jaspardb, text, group, release, collection)

    key = f"{pyjaspar.__version__}|{release or 'newest'}|{group}|{collection}"
    return cached_collection(key, fetch)


def _jaspar_motifs(jaspardb, text: str, group: str, release: str, collection: str):
    """A JASPAR collection read from pyjaspar (`known_motifs`)."""
    db = jaspardb()
    if release:
        releases = db.get_releases()
        # pyjaspar only prints a warning for an unknown release
        if release not in releases:
            raise InputError(
                f"{text!r}: unknown JASPAR release {release!r}; "
                f"pyjaspar has {', '.join(releases)}"
            )
        db = jaspardb(release=release)
    with warnings.catch_warnings():  # pyjaspar warns of an empty result; we raise
        warnings.simplefilter("ignore")
        records = db.fetch_motifs(
            collection=collection,
            tax_group=None if group.lower() == "all" else [group],
            all_versions=False,
        )
    if not records:
        raise InputError(
            f"{text!r}: no {collection} motifs for tax group {group!r} (groups: "
            "vertebrates, plants, insects, fungi, nematodes, urochordates, all; "
            "collections: CORE, UNVALIDATED, ...)"
        )
    return [
        to_motif(r, f"{r.matrix_id} {r.name}", {"n_sites": _sites(r)}, path=text)
        for r in records
    ]


def _sites(record) -> int:
    """The sites a JASPAR matrix counts (its first column's total)."""
    return int(round(sum(record.counts[a][0] for a in "ACGT")))


def _standard_columns(pwm: np.ndarray) -> np.ndarray:
    """Columns centred and scaled to unit variance over the 4 letters (0 if flat)."""
    centred = pwm - pwm.mean(axis=1, keepdims=True)
    sd = np.sqrt((centred**2).mean(axis=1, keepdims=True))
    return np.divide(centred, sd, out=np.zeros_like(centred), where=sd > 1e-12)


def _best_diagonal(corr: np.ndarray, min_overlap: int) -> tuple[float, int, int]:
    """Best diagonal sum of ``corr[i, j]`` (query i, known j) and its alignment.

    Diagonal ``k`` pairs query column ``i`` with known column ``i + k``; the
    known motif's first column then sits at query column ``-k``.
    """
    m, n = corr.shape
    best = (-np.inf, 0, 0)
    for k in range(-(m - min_overlap), n - min_overlap + 1):
        diagonal = np.diagonal(corr, offset=k)
        total = float(diagonal.sum())
        if total > best[0]:
            best = (total, -k, diagonal.size)
    return best
