"""Motif hits in a genome, each with a p-value, as FIMO finds them.

Every window of every motif's width, on both strands, of the whole genome or
of given regions is scored with the motif's log-odds against the background
letters (`poimkit.motifs.scan.log_odds`, the pseudocount of the found
motifs); a window holding N is never scored. A hit is a window whose score's
exact p-value under independent background letters
(`poimkit.motifs.scan.score_tail`) is at most ``p``. Coordinates are 0-based
half-open on the plus strand of the genome, so a hit's letters read on its
strand are the motif's.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .motif import Motif

#: p-value threshold of a hit unless another is given (FIMO's default)
HIT_P = 1e-4
#: letters scanned at once
CHUNK = 1 << 22
#: hits written at once
WRITE_ROWS = 1 << 18


@dataclass(frozen=True)
class MotifHits:
    """The hits of a scan, in genome order.

    Attributes
    ----------
    chrom : list of str
        Chromosome of every hit.
    start : numpy.ndarray of int64
        0-based start.
    motif : numpy.ndarray of int64
        Index of the motif (in ``names``).
    minus : numpy.ndarray of bool
        Whether the window reads as the motif's reverse complement.
    bits : numpy.ndarray of float64
        The log-odds score.
    p_value : numpy.ndarray of float64
        Its exact p-value.
    names : list of str
        The motifs' names.
    widths : numpy.ndarray of int64
        The motifs' widths.
    """

    chrom: list[str]
    start: np.ndarray
    motif: np.ndarray
    minus: np.ndarray
    bits: np.ndarray
    p_value: np.ndarray
    names: list[str]
    widths: np.ndarray

    def __len__(self) -> int:
        return len(self.chrom)

    @property
    def end(self) -> np.ndarray:
        """0-based end (exclusive) of every hit."""
        return self.start + self.widths[self.motif]

    def bed_rows(self) -> list[tuple]:
        """BED6+2 rows: chrom, start, end, motif, score, strand, p-value, bits.

        The score is ``min(1000, round(-100 log10 p))`` (p 1e-4: 400), an
        integer 0-1000 as UCSC wants it; a name's spaces become ``_``
        (``MA0099.4_FOS::JUN``).
        """
        score = np.minimum(1000, np.rint(-100 * np.log10(self.p_value))).astype(int)
        names = ["_".join(name.split()) for name in self.names]  # one BED word
        return [
            (
                c,
                int(a),
                int(b),
                names[m],
                int(v),
                "-" if neg else "+",
                f"{p:.3g}",
                f"{x:.2f}",
            )
            for c, a, b, m, v, neg, p, x in zip(
                self.chrom,
                self.start,
                self.end,
                self.motif,
                score,
                self.minus,
                self.p_value,
                self.bits,
                strict=True,
            )
        ]


def scan_genome(
    motifs: Sequence[Motif],
    genome: object,
    regions: Sequence[tuple[str, int, int]] | None = None,
    p: float = HIT_P,
    background: np.ndarray | None = None,
    progress: Callable[[int], object] | None = None,
) -> MotifHits:
    """Every hit of every motif in a genome or in its regions.

    Parameters
    ----------
    motifs : sequence of Motif
        The motifs (a file's, `poimkit.motifs.compare.known_motifs`).
    genome : Genome
        An open genome (`poimkit.genome.reference.open_genome`).
    regions : sequence of (chrom, start, end), optional
        0-based half-open regions to scan (default: every chromosome whole);
        a hit lies wholly inside one. Hits of overlapping regions count once.
    p : float, default=HIT_P
        Largest p-value of a hit.
    background : numpy.ndarray of float, shape (4,), optional
        Background letters; default: those of the scanned letters.
    progress : callable, optional
        Called with the letters of each region once scanned (short regions
        are scanned a few thousand at once).

    Returns
    -------
    MotifHits
    """
    parts = scan_by_chromosome(motifs, genome, regions, p, background, progress)
    return join_hits(list(parts), motifs)


def scan_by_chromosome(
    motifs: Sequence[Motif],
    genome: object,
    regions: Sequence[tuple[str, int, int]] | None = None,
    p: float = HIT_P,
    background: np.ndarray | None = None,
    progress: Callable[[int], object] | None = None,
) -> Iterator[MotifHits]:
    """`scan_genome`'s hits one chromosome at a time, in the order of their names.

    Only one chromosome's hits are held at once, so a whole genome's hits
    (10^8-10^9 at p 1e-4) go to a file without being held together
    (`write_hits_bed` takes the chromosomes one after another).

    Parameters
    ----------
    motifs, genome, regions, p, background, progress
        As in `scan_genome`.

    Yields
    ------
    MotifHits
        The hits of one chromosome (chromosomes without hits are left out).
    """
    if regions is None:
        regions = [(name, 0, int(n)) for name, n in genome.lengths.items()]
    if not motifs:
        return
    if background is None:
        background = _letters(genome, regions)
    packed = PackedMotifs.of(motifs, background)
    cuts = packed.cuts(p)
    by_chrom: dict[str, list] = {}
    for region in regions:
        by_chrom.setdefault(region[0], []).append(region)
    for chrom in sorted(by_chrom):
        found = _scan_regions(packed, cuts, genome, by_chrom[chrom], progress)
        hits = _collect(found, motifs)
        if len(hits):
            yield hits


def _scan_regions(packed, cuts, genome, regions, progress) -> list[tuple]:
    """The hits of regions, short ones scanned together (`_scan_batch`)."""
    # stretches overlap by the widest motif; a hit found twice counts once
    overlap = int(packed.widths.max()) - 1
    found, batch, size, done = [], [], 0, []
    for chrom, start, end in regions:
        codes = genome.codes(chrom, start, end)
        for s in range(0, codes.size, CHUNK):
            piece = codes[s : s + CHUNK + overlap]
            if batch and size + piece.size > CHUNK:
                found += _scan_batch(packed, cuts, batch, progress, done)
                batch, size, done = [], 0, []
            batch.append((chrom, start + s, piece))
            size += piece.size + 1
        done.append(end - start)
    if batch:
        found += _scan_batch(packed, cuts, batch, progress, done)
    return found


def join_hits(parts: Sequence[MotifHits], motifs: Sequence[Motif]) -> MotifHits:
    """Hits of several chromosomes (`scan_by_chromosome`) as one `MotifHits`.

    Parameters
    ----------
    parts : sequence of MotifHits
        In the order of their chromosomes' names.
    motifs : sequence of Motif
        The motifs scanned.

    Returns
    -------
    MotifHits
    """
    if not parts:
        return _collect([], motifs)
    return MotifHits(
        [c for part in parts for c in part.chrom],
        *(
            np.concatenate([getattr(part, name) for part in parts])
            for name in ("start", "motif", "minus", "bits", "p_value")
        ),
        parts[0].names,
        parts[0].widths,
    )


def _scan_batch(packed, cuts, batch, progress, done) -> list[tuple]:
    """Hits of stretches scanned as one, an N between two: each stretch's.

    A short region scanned alone costs every motif's tables read for few
    letters; batched, they are read once for up to `CHUNK` letters. No
    window holds the N, so none spans two stretches.
    """
    firsts = np.cumsum([0] + [piece.size + 1 for _, _, piece in batch])
    codes = np.full(firsts[-1] - 1, 4, dtype=np.uint8)
    for first, (_, _, piece) in zip(firsts, batch, strict=False):
        codes[first : first + piece.size] = piece
    _, start, motif, minus, bits, pv = packed.hits(codes, cuts, "", 0)
    which = np.searchsorted(firsts, start, side="right") - 1
    order = np.argsort(which, kind="stable")
    ends = np.searchsorted(which[order], np.arange(len(batch)), side="right")
    found = []
    for i, part in enumerate(np.split(order, ends[:-1])):
        chrom, offset, _ = batch[i]
        found.append(
            (chrom, start[part] - firsts[i] + offset, motif[part], minus[part])
            + (bits[part], pv[part])
        )
    if progress is not None:
        for letters in done:
            progress(letters)
    return found


def _letters(genome, regions) -> np.ndarray:
    """Letter frequencies of the regions (A, C, G, T; N left out)."""
    counts = np.zeros(5)
    for chrom, start, end in regions:
        counts += np.bincount(genome.codes(chrom, start, end), minlength=5)[:5]
    if counts[:4].sum() == 0:
        return np.full(4, 0.25)
    return counts[:4] / counts[:4].sum()


@dataclass
class PackedMotifs:
    """Every motif's strand tables, score tail and filter tables, packed (`_hits`).

    Attributes
    ----------
    tables : numpy.ndarray of float64, shape (n_motifs, 2, max_width, 5)
    widths : numpy.ndarray of int64, shape (n_motifs,)
    lows : numpy.ndarray of int64, shape (n_motifs,)
        Each motif's lowest score, in steps of `poimkit.motifs.scan.SCORE_GRID`.
    tails : numpy.ndarray of float64
        Every motif's score tail, one after another.
    starts : numpy.ndarray of int64, shape (n_motifs + 1,)
        Where each motif's tail starts in ``tails`` (and the end).
    wide_at : numpy.ndarray of int64, shape (n_motifs, 2, n_blocks)
        The first column of each strand's wide blocks of at most seven
        columns, which cut the motif: the seven with the most information
        first (`poimkit.motifs._hits.wide_tables`, which says the rest).
    n_wide : numpy.ndarray of int64, shape (n_motifs,)
        Each motif's blocks.
    wlow, whigh : numpy.ndarray of int32, shape (n_motifs, 2, n_blocks, 256 or 64)
        Their tables, in steps of `poimkit.motifs.scan.SCORE_GRID`.
    rest_a, rest_ab, tops : numpy.ndarray of int64, shape (n_motifs, 2)
        The most the columns outside the first block add, outside the first
        two, and the best score.
    """

    tables: np.ndarray
    widths: np.ndarray
    lows: np.ndarray
    tails: np.ndarray
    starts: np.ndarray
    wide_at: np.ndarray
    n_wide: np.ndarray
    wlow: np.ndarray
    whigh: np.ndarray
    rest_a: np.ndarray
    rest_ab: np.ndarray
    tops: np.ndarray
    _filters: tuple | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, motifs: Sequence[Motif], background: np.ndarray) -> PackedMotifs:
        """The motifs' log-odds against ``background``, packed.

        Parameters
        ----------
        motifs : sequence of Motif
        background : numpy.ndarray of float, shape (4,)

        Returns
        -------
        PackedMotifs
        """
        from ._hits import wide_tables
        from .enrichment import motif_counts
        from .scan import SCORE_GRID, log_odds, score_tail, strand_tables

        rules = []
        for motif in motifs:
            lods = log_odds(motif_counts(motif), background)
            low, tail = score_tail(lods, background)
            rules.append((strand_tables(lods), low, tail))
        widths = np.array([t.shape[1] for t, _, _ in rules], dtype=np.int64)
        tables = np.zeros((len(rules), 2, widths.max(), 5))
        for m, (table, _, _) in enumerate(rules):
            tables[m, :, : widths[m]] = table
        sizes = [tail.size for _, _, tail in rules]
        # the log-odds are whole grid steps (`log_odds`): the filter's integers
        steps = np.rint(np.nan_to_num(tables[..., :4], neginf=0) / SCORE_GRID)
        steps = steps.astype(np.int64)
        wide_at, wide_k = _wide_blocks(steps, widths)
        shape = (len(rules), 2, wide_k.shape[1])
        wlow = np.zeros((*shape, 256), dtype=np.int32)
        whigh = np.zeros((*shape, 64), dtype=np.int32)
        rest_a, rest_ab, tops = np.zeros((3, len(rules), 2), dtype=np.int64)
        wide_tables(steps, widths, wide_at, wide_k, wlow, whigh, rest_a, rest_ab, tops)
        return cls(
            tables,
            widths,
            np.array([low for _, low, _ in rules], dtype=np.int64),
            np.concatenate([tail for _, _, tail in rules]),
            np.r_[0, np.cumsum(sizes)].astype(np.int64),
            wide_at,
            (wide_k > 0).sum(axis=1),
            wlow,
            whigh,
            rest_a,
            rest_ab,
            tops,
        )

    def cuts(self, p: float) -> np.ndarray:
        """Each motif's least score of a hit at ``p``, in grid steps.

        Parameters
        ----------
        p : float
            Largest p-value of a hit.

        Returns
        -------
        numpy.ndarray of float64
            ``inf`` for a motif no window of which reaches ``p``.
        """
        cuts = np.full(self.widths.size, np.inf)
        for m in range(self.widths.size):
            tail = self.tails[self.starts[m] : self.starts[m + 1]]
            # the tail falls with the score: its first entry at most p
            below = np.flatnonzero(tail <= p)
            if below.size:
                cuts[m] = self.lows[m] + int(below[0])
        return cuts

    def hits(self, codes: np.ndarray, cuts: np.ndarray, chrom: str, offset: int):
        """Hits of every motif in ``codes``: (chrom, start, motif, minus, bits, p).

        Parameters
        ----------
        codes : numpy.ndarray of uint8
            Letters of a stretch of ``chrom`` starting at ``offset``.
        cuts : numpy.ndarray of float64
            `cuts` at the p-value threshold.
        chrom : str
        offset : int

        Returns
        -------
        tuple
            The arrays of the hits, motif by motif, each motif's in order of
            start, the given strand first.
        """
        from ._hits import wide_codes

        codes = np.ascontiguousarray(codes, dtype=np.uint8)
        n_motifs = self.widths.size
        wcodes = np.empty(codes.size, dtype=np.uint16)
        wide_codes(codes, wcodes)
        segments = _segments(codes, int(self.widths.min()))
        floors, flags = self.filters(cuts)
        counts = np.zeros(n_motifs, dtype=np.int64)
        # room for 8 times the hits expected by chance; a motif with more (a
        # repeat) is scanned again alone, with room for all
        cap = min(2 * codes.size, 64 + int(16 * self.chance(cuts) * codes.size))
        every = np.ones(n_motifs, dtype=bool)
        found = self._scan(
            codes, wcodes, segments, cuts, floors, flags, every, counts, cap
        )
        over = counts > cap
        rows, cols = np.nonzero(np.arange(cap) < np.where(over, 0, counts)[:, None])
        first = np.r_[0, np.cumsum(counts)[:-1]]
        n = int(counts.sum())
        out = [np.empty(n, dtype=f.dtype) for f in found]
        for o, f in zip(out, found, strict=True):
            o[first[rows] + cols] = f[rows, cols]
        if over.any():
            again = np.zeros(n_motifs, dtype=np.int64)
            cap = int(counts.max())
            found = self._scan(
                codes, wcodes, segments, cuts, floors, flags, over, again, cap
            )
            rows, cols = np.nonzero(np.arange(cap) < again[:, None])
            for o, f in zip(out, found, strict=True):
                o[first[rows] + cols] = f[rows, cols]
        motif = np.repeat(np.arange(n_motifs, dtype=np.int64), counts)
        order = np.lexsort((out[1], out[0], motif))  # the kernel's is not kept
        at, minus, bits, pv = (o[order] for o in out)
        return chrom, at + offset, motif, minus, bits, pv

    def chance(self, cuts: np.ndarray) -> float:
        """The largest chance of a window reaching its motif's cut.

        Parameters
        ----------
        cuts : numpy.ndarray of float64
            `cuts` at a p-value threshold.

        Returns
        -------
        float
            0 when no motif can reach its cut.
        """
        ok = np.flatnonzero(np.isfinite(cuts))
        if not ok.size:
            return 0.0
        index = np.minimum(
            self.starts[ok] + cuts[ok].astype(np.int64) - self.lows[ok],
            self.starts[ok + 1] - 1,
        )
        return float(self.tails[index].max())

    def filters(self, cuts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The filter's cut in steps and its wide test at ``cuts`` (kept once made).

        Parameters
        ----------
        cuts : numpy.ndarray of float64
            `cuts` at a p-value threshold.

        Returns
        -------
        floors : numpy.ndarray of int64
            One step below each cut: the filter lets every hit through.
        flags : numpy.ndarray of uint8, shape (n_motifs, 4**7)
            `poimkit.motifs._hits.wide_flags`.
        """
        from ._hits import WIDE_CODES, wide_flags

        key = cuts.tobytes()
        if self._filters is None or self._filters[0] != key:
            floors = np.where(np.isfinite(cuts), cuts - 1, 2.0**62).astype(np.int64)
            flags = np.zeros((self.widths.size, WIDE_CODES), dtype=np.uint8)
            wide_flags(self.wlow, self.whigh, self.rest_a, floors, flags)
            self._filters = (key, floors, flags)
        return self._filters[1], self._filters[2]

    def _scan(self, codes, wcodes, segments, cuts, floors, flags, todo, counts, cap):
        """`poimkit.motifs._hits.scan_hits` into arrays of ``cap`` hits a motif."""
        from ._hits import scan_hits
        from .scan import SCORE_GRID

        n_motifs = self.widths.size
        at = np.empty((n_motifs, cap), dtype=np.int64)
        minus = np.empty((n_motifs, cap), dtype=bool)
        bits, pv = np.empty((n_motifs, cap)), np.empty((n_motifs, cap))
        scan_hits(
            codes,
            wcodes,
            segments,
            self.tables,
            self.widths,
            SCORE_GRID,
            cuts,
            floors,
            self.lows,
            self.tails,
            self.starts,
            flags,
            self.wide_at,
            self.n_wide,
            self.wlow,
            self.whigh,
            self.rest_ab,
            self.tops,
            todo,
            counts,
            at,
            minus,
            bits,
            pv,
        )
        return at, minus, bits, pv


def _wide_blocks(steps: np.ndarray, widths: np.ndarray):
    """Each strand's wide blocks: where they start and their widths.

    The first: the `WIDE` columns (or all) with the most information, each
    column's largest steps less their mean; then the columns on either side
    of it, `WIDE` at a time from the left, the blocks with the most
    information first. The reverse strand's are the same columns, read from
    its own first column.
    """
    from ._hits import WIDE

    # two at least: the kernel reads a second block, of no columns if need be
    n_blocks = max(2, 1 + 2 * -(-max(int(widths.max()) - WIDE, 0) // WIDE))
    wide_at = np.zeros((widths.size, 2, n_blocks), dtype=np.int64)
    wide_k = np.zeros((widths.size, n_blocks), dtype=np.int64)
    for m, width in enumerate(widths.tolist()):
        column = steps[m, 0, :width]
        gain = column.max(axis=1) - column.mean(axis=1)
        k = min(WIDE, width)
        first = int(np.argmax(np.convolve(gain, np.ones(k), "valid")))
        blocks = []
        for low, high in ((0, first), (first + k, width)):
            blocks += [(j, min(WIDE, high - j)) for j in range(low, high, WIDE)]
        blocks.sort(key=lambda block: -gain[block[0] : sum(block)].sum())
        for b, (at, size) in enumerate([(first, k), *blocks]):
            wide_k[m, b] = size
            wide_at[m, 0, b] = at
            wide_at[m, 1, b] = width - size - at  # the same columns
    return wide_at, wide_k


def _segments(codes: np.ndarray, width: int) -> np.ndarray:
    """Runs of letters without N at least ``width`` long: (start, end) rows."""
    ok = np.r_[False, codes < 4, False]
    edges = np.flatnonzero(ok[1:] != ok[:-1]).reshape(-1, 2)
    return np.ascontiguousarray(edges[edges[:, 1] - edges[:, 0] >= width])


def _collect(found, motifs) -> MotifHits:
    """The regions' hits as one `MotifHits` in genome order, each once."""
    found = [f for f in found if f is not None and f[1].size]
    names = [m.name for m in motifs]
    widths = np.array([m.length for m in motifs], dtype=np.int64)
    if not found:
        empty = np.empty(0)
        return MotifHits(
            [],
            empty.astype(np.int64),
            empty.astype(np.int64),
            empty.astype(bool),
            empty,
            empty,
            names,
            widths,
        )
    # chromosomes by the rank of their names: the order of the names, in ints
    chroms = sorted({f[0] for f in found})
    rank = {name: i for i, name in enumerate(chroms)}
    chrom = np.concatenate([np.full(f[1].size, rank[f[0]]) for f in found])
    start, motif, minus, bits, pv = (
        np.concatenate([f[i] for f in found]) for i in range(1, 6)
    )
    order = np.lexsort((minus, motif, start, chrom))
    keep = order[_first_of_each(chrom[order], start[order], motif[order], minus[order])]
    return MotifHits(
        np.array(chroms, dtype=object)[chrom[keep]].tolist(),
        start[keep],
        motif[keep],
        minus[keep],
        bits[keep],
        pv[keep],
        names,
        widths,
    )


def _first_of_each(chrom, start, motif, minus) -> np.ndarray:
    """Positions of the first of each run of equal hits (sorted input)."""
    same = np.zeros(start.size, dtype=bool)
    same[1:] = (
        (chrom[1:] == chrom[:-1])
        & (start[1:] == start[:-1])
        & (motif[1:] == motif[:-1])
        & (minus[1:] == minus[:-1])
    )
    return np.flatnonzero(~same)


def write_hits_bed(
    path: str | os.PathLike,
    hits: MotifHits | Iterable[MotifHits],
    track: str | None = None,
) -> int:
    """Write the hits as BED6+2 (`MotifHits.bed_rows`), atomically.

    Parameters
    ----------
    path : str or path-like
        The file (``hits.bed``).
    hits : MotifHits or iterable of MotifHits
        The hits, or chromosomes' hits one after another
        (`scan_by_chromosome`), written as they come.
    track : str, optional
        A first line (a UCSC ``track`` line).

    Returns
    -------
    int
        Hits written.
    """
    from ..io.files import atomic_path

    parts = [hits] if isinstance(hits, MotifHits) else hits
    written = 0
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as handle:
        if track:
            handle.write(track + "\n")
        for part in parts:
            _write_rows(handle, part)
            written += len(part)
    return written


def _write_rows(handle, hits: MotifHits) -> None:
    """The rows of `MotifHits.bed_rows`, `WRITE_ROWS` at a time."""
    names = np.array(["_".join(name.split()) for name in hits.names], dtype=object)
    for a in range(0, len(hits), WRITE_ROWS):
        b = min(a + WRITE_ROWS, len(hits))
        part = _part(hits, a, b)
        score = np.minimum(1000, np.rint(-100 * np.log10(part.p_value)))
        rows = zip(
            part.chrom,
            part.start.tolist(),
            part.end.tolist(),
            names[part.motif].tolist(),
            score.astype(int).tolist(),
            np.where(part.minus, "-", "+").tolist(),
            part.p_value.tolist(),
            part.bits.tolist(),
            strict=True,
        )
        handle.write(
            "".join(
                f"{c}\t{s}\t{e}\t{n}\t{v}\t{d}\t{p:.3g}\t{x:.2f}\n"
                for c, s, e, n, v, d, p, x in rows
            )
        )


def _part(hits: MotifHits, a: int, b: int) -> MotifHits:
    """Hits ``a`` to ``b`` (excluded)."""
    return MotifHits(
        hits.chrom[a:b],
        hits.start[a:b],
        hits.motif[a:b],
        hits.minus[a:b],
        hits.bits[a:b],
        hits.p_value[a:b],
        hits.names,
        hits.widths,
    )
