"""Where a record comes from: the chromosome and start in its id ``chrom:start-end``.

`record_loci` reads the ids poimkit gives genome windows (``chr1:100-300(+)``,
a ``#n`` suffix, ``shuffleN:`` before a shuffled window's source) and
``chrom:start-end`` ids of any FASTA; the genomic folds
(`poimkit.svm.folds.genomic_folds`), the sites' BED and the explained
records' positions all read them here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import InputError

_LOCUS = re.compile(r"^(?:shuffle\d+:)?(?P<chrom>\S+):(?P<start>\d+)-(?P<end>\d+)")
_TAIL = re.compile(r"(?:\([+.-]\))?(?:#\d+)?$")


@dataclass
class Loci:
    """The chromosome and start of every record.

    Attributes
    ----------
    chrom : numpy.ndarray of str
        Chromosome (sequence) names.
    start : numpy.ndarray of int64
        0-based starts.
    end : numpy.ndarray of int64 or None
        Ends (exclusive), as the ids give them.
    minus : numpy.ndarray of bool or None
        Whether the record is the window's reverse complement (``(-)``).
    """

    chrom: np.ndarray
    start: np.ndarray
    end: np.ndarray | None = None
    minus: np.ndarray | None = None

    def groups(self, block: int | None = None) -> np.ndarray:
        """Group names: the chromosome, or ``chrom:b`` for block b of ``block``.

        Parameters
        ----------
        block : int, optional
            Letters per block; None: whole chromosomes.

        Returns
        -------
        numpy.ndarray of str
        """
        if block is None:
            return self.chrom.astype(str)
        index = (self.start // block).astype(str)
        return np.char.add(np.char.add(self.chrom.astype(str), ":"), index)


def record_loci(ids: Sequence[str], path: str | None = None) -> Loci:
    """Read every record's chromosome and start from its id ``chrom:start-end``.

    Accepts the ids poimkit gives genome windows (``chr1:100-300(+)``, a
    ``#n`` suffix, ``shuffleN:`` before a shuffled window's source) and
    ``chrom:start-end`` ids of any FASTA.

    Parameters
    ----------
    ids : sequence of str
        Record ids.
    path : str, optional
        The file they come from, for the error message.

    Returns
    -------
    Loci

    Raises
    ------
    InputError
        Naming the first id that does not read ``chrom:start-end``.

    Examples
    --------
    >>> loci = record_loci(["chr2:100-300(+)", "shuffle1:chrX:5-205", "c:1-2#3"])
    >>> loci.chrom.tolist(), loci.start.tolist(), loci.end.tolist()
    (['chr2', 'chrX', 'c'], [100, 5, 1], [300, 205, 2])
    >>> record_loci(["chr1:10-20(-)#2"]).minus.tolist()
    [True]
    """
    chrom, start, end, minus = [], [], [], []
    for number, name in enumerate(ids, 1):
        found = _LOCUS.match(name)
        if found is None or not _TAIL.fullmatch(name[found.end() :]):
            raise InputError(
                f"--cv-by chrom needs record ids 'chrom:start-end', got {name!r} "
                "(or use --cv-by random)",
                path=path,
                record=f"record {number}",
            )
        chrom.append(found["chrom"])
        start.append(int(found["start"]))
        end.append(int(found["end"]))
        minus.append(name[found.end() :].startswith("(-)"))
    return Loci(
        np.array(chrom, dtype=object),
        np.array(start, dtype=np.int64),
        np.array(end, dtype=np.int64),
        np.array(minus, dtype=bool),
    )
