"""Every possible SNV of every peak: exact effects, null, q-values, an indexed table.

`score_all_snvs` scores the three alternative letters at every position of
the peaks' windows of the model's length (the windows ``run --bed`` trains
on; overlapping windows merged, so each position once). Each SNV is placed
as ``variants --vcf --bed`` places a variant in a peak
(`poimkit.variants.placement`): a gkm model sees it at the centre of its own
window, a positional model in its peak's training window (and its moved
copies). A gkm model, whose factor depends on the window's length only, is
scored by one numba pass per chromosome (`_effects.centre_snv_effects`); every
other model through the variants' own scoring (`scored_chunk`), so each
effect is the model's score of the alternative window minus that of the
reference window, as for a VCF.

Every effect is tested against the variant null (`poimkit.variants.null`).
Its empirical p-value is ``(1 + k) / (1 + N)``, k the null's effects at least
as large in absolute value, so its Benjamini-Hochberg q-value over all SNVs
depends on k alone: `q_of_counts` gives it from the counts of k, in linear
time and without sorting the 10^7-10^8 p-values (equal to `q_values` of them).

`write_all_snvs` writes one line per SNV, sorted by chromosome (the genome's
order) and position, BGZF-compressed with a tabix index (pysam), so ``tabix
snvs.tsv.gz chr1:1000-2000`` reads the SNVs of a region. The lines are
written by numba (`poimkit.variants._text`: the same text as Python's
formatting, several times faster), each p- and q-value pair formatted once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InputError

__all__ = [
    "ALL_SNV_COLUMNS",
    "AllSnvs",
    "ChromosomeSnvs",
    "check_all_snvs_output",
    "chromosome_effects",
    "peak_stretches",
    "q_of_counts",
    "score_all_snvs",
    "write_all_snvs",
]

#: The columns of the table, one line per SNV.
ALL_SNV_COLUMNS = ("chrom", "pos", "ref", "alt", "effect", "z", "p_value", "q_value")
#: The table's first line (`poimkit.variants.scoring.is_effects_file` reads it).
MARK = "##poimkit variants --all-snvs"
#: Positions scored at once (three SNVs each) through `scored_chunk`.
POSITIONS = 8192
#: The reason counted for peak positions whose genome letter is N.
NO_LETTER = "N in the genome (positions, no SNV)"
#: Lines formatted at once when writing.
LINES = 1 << 18
LETTERS = np.array(list("ACGT"))
#: tab, REF, tab, ALT, tab as bytes, by the two letters' codes.
PAIRS = np.array(
    [[list(f"\t{r}\t{a}\t".encode()) for a in "ACGT"] for r in "ACGTN"],
    dtype=np.uint8,
)


@dataclass
class ChromosomeSnvs:
    """The SNVs at the peak positions of one chromosome.

    Attributes
    ----------
    chrom : str
        The chromosome.
    pos : numpy.ndarray of int64, shape (n,)
        The 0-based positions, sorted.
    ref : numpy.ndarray of uint8, shape (n,)
        The genome's letters there (4: N).
    effect : numpy.ndarray of float64, shape (n, 4)
        Row j: the change of each letter at ``pos[j]`` (NaN for the
        reference letter itself and for SNVs not scored).
    at_least : numpy.ndarray of int32 or None
        With a null: its effects at least as large in absolute value as each
        SNV's (-1: not scored).
    """

    chrom: str
    pos: np.ndarray
    ref: np.ndarray
    effect: np.ndarray
    at_least: np.ndarray | None = None

    @property
    def n_snvs(self) -> int:
        """SNVs scored."""
        return int(np.count_nonzero(~np.isnan(self.effect)))


@dataclass
class AllSnvs:
    """What `score_all_snvs` found.

    Attributes
    ----------
    chromosomes : list of ChromosomeSnvs
        In the genome's order.
    null : VariantNull or None
        The null (None: not tested).
    q_table : numpy.ndarray of float64 or None
        The q-value of an SNV with k null effects at least as large (index k).
    skipped : dict of str to int
        SNVs not scored, by reason; `NO_LETTER`: peak positions whose letter
        is N.
    source : str
        The model, in words (the table's header).
    """

    chromosomes: list[ChromosomeSnvs]
    null: Any = None
    q_table: np.ndarray | None = None
    skipped: dict[str, int] = field(default_factory=dict)
    source: str = ""

    @property
    def n_snvs(self) -> int:
        """SNVs scored."""
        return sum(s.n_snvs for s in self.chromosomes)

    @property
    def n_positions(self) -> int:
        """Peak positions."""
        return sum(s.pos.size for s in self.chromosomes)

    def called(self, q: float) -> int:
        """SNVs with q-value at most ``q`` (0 without a null).

        Parameters
        ----------
        q : float
            The threshold.

        Returns
        -------
        int
        """
        if self.q_table is None:
            return 0
        hits = self.q_table <= q
        return sum(
            int(hits[s.at_least[s.at_least >= 0]].sum()) for s in self.chromosomes
        )

    def summary_text(self, output: str) -> str:
        """How many SNVs were written into ``output``, and what was skipped.

        Parameters
        ----------
        output : str

        Returns
        -------
        str
        """
        text = (
            f"scored {self.n_snvs:,} SNVs at {self.n_positions:,} peak positions "
            f"into {output} (+ .tbi)"
        )
        if self.skipped:
            text += "; skipped " + ", ".join(
                f"{count:,} ({reason})" for reason, count in self.skipped.items()
            )
        return text

    def calls_text(self, q: float) -> str:
        """``--calls Q`` in words.

        Parameters
        ----------
        q : float

        Returns
        -------
        str
        """
        from .null import floor_note

        n = self.null.effects.size
        return (
            f"called {self.called(q):,} of {self.n_snvs:,} SNVs at q <= {q:g} "
            f"(null: {n:,} random SNVs in {self.null.source})"
            + floor_note(n, self.n_snvs, q)
        )


def check_all_snvs_output(path: str) -> None:
    """Before any work: ``-o`` a ``.tsv.gz`` (or ``.tsv.bgz``) and pysam importable.

    Parameters
    ----------
    path : str
        The table to write.

    Raises
    ------
    InputError
        For another suffix, or without pysam.
    """
    from .vcf_out import check_vcf_output

    if not path.endswith((".tsv.gz", ".tsv.bgz")):
        raise InputError(
            f"-o {path}: every SNV goes into a bgzipped, tabix-indexed table; "
            "name it X.tsv.gz"
        )
    check_vcf_output(path)


def peak_stretches(peaks: Any, length: int, lengths: dict[str, int]) -> dict:
    """The peaks' windows of ``length`` letters, merged, per chromosome.

    Parameters
    ----------
    peaks : Peaks
        `poimkit.genome.peaks.read_peaks`.
    length : int
        The model's window length.
    lengths : dict of str to int
        The genome's chromosome lengths (windows are cut at the ends).

    Returns
    -------
    dict of str to numpy.ndarray
        Per chromosome, in the genome's order: sorted, disjoint ``(start,
        end)`` rows of int64.

    Examples
    --------
    >>> from poimkit.genome.peaks import Peaks
    >>> p = Peaks("x.bed", "bed3", ["c", "c", "c"], np.array([0, 6, 30]),
    ...           np.array([4, 10, 34]), np.array(["."] * 3), np.array([2, 8, 32]),
    ...           np.array([1, 2, 3]))
    >>> peak_stretches(p, 6, {"c": 33})["c"].tolist()
    [[0, 11], [29, 33]]
    """
    windows = peaks.windows(length)
    chrom = np.asarray(windows.chrom, dtype=object)
    out = {}
    for name, size in lengths.items():
        at = np.flatnonzero(chrom == name)
        if not at.size:
            continue
        start = np.clip(windows.start[at], 0, size)
        end = np.clip(windows.end[at], 0, size)
        order = np.argsort(start, kind="stable")
        start, end = start[order], np.maximum.accumulate(end[order])
        new = np.ones(start.size, dtype=bool)
        new[1:] = start[1:] > end[:-1]
        first = np.flatnonzero(new)
        last = np.append(first[1:], start.size) - 1
        rows = np.stack([start[first], end[last]], axis=1)
        out[name] = rows[rows[:, 1] > rows[:, 0]]
    return out


def _length_factor(engine: Any) -> float | None:
    """``a(L)`` of a gkm model whose factor depends on the length alone, else None."""
    model = getattr(engine, "model", None)
    if not engine.position_free or not getattr(model, "factor_per_length", False):
        return None
    L = engine.length
    return float(model.record_factors(np.zeros(L, np.uint8), np.array([0, L]))[0])


def chromosome_effects(
    engine: Any,
    placement: Any,
    codes: np.ndarray,
    chrom: str,
    stretches: np.ndarray,
    bar: Any = None,
) -> tuple[ChromosomeSnvs, dict[str, int]]:
    """The effects of the three SNVs at every position of a chromosome's stretches.

    Parameters
    ----------
    engine : object
        `poimkit.variants.effects.effect_engine` of the model.
    placement : Placement
        Where the SNVs go (`poimkit.variants.placement.Placement`).
    codes : numpy.ndarray of uint8
        The chromosome.
    chrom : str
        Its name.
    stretches : numpy.ndarray of int64, shape (m, 2)
        Sorted, disjoint ``(start, end)`` rows (`peak_stretches`).
    bar : tqdm, optional
        Advanced by the positions done.

    Returns
    -------
    snvs : ChromosomeSnvs
    skipped : dict of str to int
        SNVs not scored, by reason.
    """
    lo, hi = stretches[:, 0], stretches[:, 1]
    row0 = np.concatenate([[0], np.cumsum(hi - lo)])  # each stretch's first row
    pos = np.repeat(lo - row0[:-1], hi - lo) + np.arange(row0[-1])
    effect = np.full((pos.size, 4), np.nan)
    scale = _length_factor(engine)
    if scale is not None:
        rows = (row0[:-1], pos)
        skipped = _centre_effects(engine, codes, stretches, rows, scale, effect)
        if bar is not None:
            bar.update(pos.size)
    else:
        skipped = _placed_effects(engine, placement, codes, chrom, pos, effect, bar)
    ref = codes[pos]
    no_letter = int(np.count_nonzero(ref > 3))
    if no_letter:
        skipped[NO_LETTER] = no_letter
    return ChromosomeSnvs(chrom, pos, ref, effect), skipped


def _centre_effects(engine, codes, stretches, rows, scale, out) -> dict[str, int]:
    """One numba pass (`_effects.centre_snv_effects`); the skipped SNVs counted.

    ``rows`` is ``(row0, pos)``: each stretch's first row and every row's position.
    """
    from ._effects import centre_snv_effects
    from .windows import HAS_N, PAST_END

    L = engine.length
    row0, pos = rows
    lo, hi = stretches[:, 0].copy(), stretches[:, 1].copy()
    centre_snv_effects(codes, lo, hi, row0, L, engine.l, engine.table, scale, out)
    letter = codes[pos] <= 3
    start = pos - L // 2
    past = letter & ((start < 0) | (start + L > codes.size))
    lost = letter & ~past & np.isnan(out).all(axis=1)
    return {PAST_END: 3 * int(past.sum()), HAS_N: 3 * int(lost.sum())}


def _placed_effects(engine, placement, codes, chrom, pos, out, bar) -> dict[str, int]:
    """Through `scored_chunk`, ``POSITIONS`` positions (three SNVs each) at once."""
    from .placement import scored_chunk

    skipped: dict[str, int] = {}
    for s in range(0, pos.size, POSITIONS):
        rows = np.arange(s, min(s + POSITIONS, pos.size))
        rows = rows[codes[pos[rows]] <= 3]
        ref = np.repeat(codes[pos[rows]], 3)
        alt = (ref + np.tile(np.arange(1, 4, dtype=np.uint8), rows.size)) % 4
        row = np.repeat(rows, 3)
        chunk, lost = scored_chunk(
            engine,
            placement,
            codes,
            chrom,
            pos[row],
            LETTERS[ref].tolist(),
            LETTERS[alt].tolist(),
            np.arange(row.size, dtype=np.int64),
            0,
            scores=False,  # the effects alone
        )
        out[row[chunk.rows], alt[chunk.rows]] = chunk.effect
        for reason, count in lost.items():
            skipped[reason] = skipped.get(reason, 0) + count
        if bar is not None:
            bar.update(min(s + POSITIONS, pos.size) - s)
    return skipped


def q_of_counts(counts: np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg q-values of empirical p-values, by their count k.

    With a null of N effects, p = (1 + k) / (1 + N); ``counts[k]`` SNVs have
    count k. The q-value of p is ``min(1, min over p' >= p of p' n / #{p <=
    p'})``, n SNVs in all: the same numbers as `poimkit.variants.null.q_values`
    of the p-values themselves.

    Parameters
    ----------
    counts : numpy.ndarray of int64, shape (N + 1,)

    Returns
    -------
    numpy.ndarray of float64, shape (N + 1,)
        The q-value of count k (NaN where no SNV has it).

    Examples
    --------
    >>> q_of_counts(np.array([3, 0, 1, 0, 2, 0, 0, 0, 0, 1])).round(3).tolist()
    [0.233, nan, 0.525, nan, 0.583, nan, nan, nan, nan, 1.0]
    """
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    p = (1.0 + np.arange(counts.size)) / float(counts.size)
    rank = np.cumsum(counts)
    q = np.full(counts.size, np.nan)
    held = np.flatnonzero(counts)
    if not held.size:
        return q
    ranked = p[held] * n / rank[held]
    q[held] = np.minimum(1.0, np.minimum.accumulate(ranked[::-1])[::-1])
    return q


def _test(found: AllSnvs, null: Any) -> None:
    """Each SNV's count k against the null, and the q-value of every k."""
    sorted_null = np.sort(np.abs(null.effects))
    counts = np.zeros(sorted_null.size + 1, dtype=np.int64)
    for s in found.chromosomes:
        k = np.full(s.effect.shape, -1, dtype=np.int32)
        scored = ~np.isnan(s.effect)
        below = np.searchsorted(sorted_null, np.abs(s.effect[scored]), side="left")
        k[scored] = sorted_null.size - below
        counts += np.bincount(k[scored], minlength=counts.size)
        s.at_least = k
    found.null = null
    found.q_table = q_of_counts(counts)


def score_all_snvs(
    model: Any,
    genome: str,
    bed: str,
    null: int = 100_000,
    null_windows: str | None = None,
    seed: int = 0,
    progress: bool = False,
) -> AllSnvs:
    """Exact effects of every SNV in the peaks' windows, tested against the null.

    Parameters
    ----------
    model : object
        A loaded model (`poimkit.load_model`).
    genome : str
        The reference FASTA (plain or bgzip).
    bed : str
        The peaks (BED or narrowPeak): their windows of the model's length
        around each summit are scored.
    null : int, default=100_000
        Random SNVs of the null (0: no test).
    null_windows : str, optional
        Background regions of the null (default: random genome windows).
    seed : int, default=0
        Seed of the null.
    progress : bool, default=False
        Progress bars on standard error.

    Returns
    -------
    AllSnvs
    """
    from tqdm.auto import tqdm

    from ..genome.peaks import check_chromosomes, read_peaks
    from ..genome.reference import open_genome
    from .effects import effect_engine
    from .null import background_windows, variant_null
    from .placement import Placement

    engine = effect_engine(model)
    opened = open_genome(genome)
    peaks = read_peaks(bed)
    check_chromosomes(peaks, opened)  # every line, before any scoring
    stretches = peak_stretches(peaks, engine.length, opened.lengths)
    placement = Placement.of(engine, peaks.windows(engine.length))
    if null:  # its windows read (or drawn) before any scoring
        background = background_windows(opened, engine.length, null_windows, seed)
    found = AllSnvs([], source=_describe(model))
    total = int(sum((rows[:, 1] - rows[:, 0]).sum() for rows in stretches.values()))
    bar = tqdm(
        total=total, desc="SNVs", unit="pos", unit_scale=True, disable=not progress
    )
    with bar:
        for chrom, rows in stretches.items():
            codes = opened.codes(chrom)
            part, lost = chromosome_effects(engine, placement, codes, chrom, rows, bar)
            found.chromosomes.append(part)
            for reason, count in lost.items():
                if count:
                    found.skipped[reason] = found.skipped.get(reason, 0) + count
    if null and found.n_snvs:
        windows, source = background
        kind = placement.kind
        drawn = variant_null(
            engine, kind, opened, windows, source, null, seed, progress
        )
        _test(found, drawn)
    return found


def _describe(model: Any) -> str:
    describe = getattr(model, "describe", None)
    return describe() if callable(describe) else type(model).__name__


def _tested_bytes(found: AllSnvs) -> tuple[np.ndarray, np.ndarray]:
    """``p_value<TAB>q_value`` of every count k as rows of bytes, and their lengths.

    A null of N effects gives N + 1 p-values: each is formatted once.
    """
    if found.null is None:
        texts = ["NA\tNA"]
    else:
        n = found.null.effects.size
        p = (1.0 + np.arange(n + 1)) / (1.0 + n)
        texts = [f"{pv:.4g}\t{qv:.4g}" for pv, qv in zip(p, found.q_table, strict=True)]
    size = np.array([len(x) for x in texts], dtype=np.int64)
    table = np.zeros((len(texts), int(size.max())), dtype=np.uint8)
    for i, x in enumerate(texts):
        table[i, : size[i]] = np.frombuffer(x.encode(), np.uint8)
    return table, size


def _blocks(s: ChromosomeSnvs, found: AllSnvs, tested: tuple):
    """The table's bytes for one chromosome, ``LINES`` lines at a time: (bytes, n)."""
    from ._text import pack, table_lines

    head = np.frombuffer((s.chrom + "\t").encode(), np.uint8)
    table, size = tested
    width = head.size + 64 + table.shape[1]
    j, c = np.nonzero(~np.isnan(s.effect))
    for a in range(0, j.size, LINES):
        jj, cc = j[a : a + LINES], c[a : a + LINES]
        effect = s.effect[jj, cc]
        if found.null is None:
            z = np.full(jj.size, np.nan)
            k = np.zeros(jj.size, dtype=np.int64)
        else:
            z = found.null.z_scores(effect)
            k = s.at_least[jj, cc].astype(np.int64)
        slots = np.empty((jj.size, width), dtype=np.uint8)
        pair = PAIRS[s.ref[jj], cc]
        lengths = table_lines(
            head, s.pos[jj] + 1, pair, effect, z, table, size, k, slots
        )
        yield pack(slots, lengths).tobytes(), jj.size


def _header(found: AllSnvs) -> str:
    lines = [MARK, f"##model={found.source}"]
    if found.null is not None:
        null = found.null
        lines += [
            f"##null={null.effects.size} random SNVs in {null.source}",
            f"##null_mean={float(np.mean(null.effects)):.6g}",
            f"##null_sd={float(np.std(null.effects)):.6g}",
            "##p_value=two-sided empirical, (1 + #{|null| >= |effect|}) / (1 + N)",
            "##q_value=Benjamini-Hochberg over every SNV of the file",
        ]
    return "\n".join(lines) + "\n#" + "\t".join(ALL_SNV_COLUMNS) + "\n"


def write_all_snvs(path: str, found: AllSnvs, progress: bool = False) -> None:
    """The table, BGZF-compressed, and its tabix index ``.tbi``; both or neither.

    Parameters
    ----------
    path : str
        ``X.tsv.gz``; the index is ``X.tsv.gz.tbi``.
    found : AllSnvs
        What `score_all_snvs` found.
    progress : bool, default=False
        A progress bar over the SNVs on standard error.
    """
    import pysam
    from pysam.libcbgzf import BGZFile
    from tqdm.auto import tqdm

    from ..io import atomic_path, commit_together

    bar = tqdm(
        total=found.n_snvs,
        desc="write",
        unit="SNV",
        unit_scale=True,
        disable=not progress,
    )
    with commit_together(), bar:
        with atomic_path(path) as packed, atomic_path(path + ".tbi") as index:
            tested = _tested_bytes(found)
            with BGZFile(packed, "wb1") as handle:
                handle.write(_header(found).encode())
                for s in found.chromosomes:
                    for block, n in _blocks(s, found, tested):
                        handle.write(block)
                        bar.update(n)
            pysam.tabix_index(
                packed,
                seq_col=0,
                start_col=1,
                end_col=1,
                meta_char="#",
                force=True,
                index=index,
            )
