"""Variants in: VCF files and tables of reference / alternative sequence pairs.

`read_vcf` reads the columns CHROM POS ID REF ALT of a VCF (plain or gzip;
``##`` meta lines and the ``#CHROM`` header are passed over; further columns
are ignored). A line with several ALT alleles gives one variant per allele;
symbolic alleles (``<DEL>``, breakends), ``*`` and ``.`` are skipped and
counted. An ID ``.`` becomes ``chrom:pos:ref:alt``. `read_pairs` reads a
tab-separated table ``id ref alt`` of whole sequences, for use without a
genome. Every malformed line raises `poimkit.InputError` naming the file and
the line.

`check_chromosomes` and `check_ref` compare the variants with a genome (any
object with ``path``, ``lengths`` and ``codes(chrom)`` as
`poimkit.genome.reference.Genome`); the variants of each chromosome are
grouped (`VariantTable.by_chromosome`) so that a chromosome is read once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError
from .reference import OTHER, Genome, text_codes

N_CODE = OTHER
_BASES = "ACGTNacgtn"
#: the reason an ALT allele is skipped when reading (key of `VariantTable.skipped`)
SYMBOLIC = "symbolic ALT (<...>, breakend, *, .)"


@dataclass
class VariantTable:
    """Variants, one per ALT allele, in input order.

    Attributes
    ----------
    path : str
        The file read.
    chrom : list of str
    pos : numpy.ndarray of int64
        1-based position of the first REF letter (VCF's POS).
    id : list of str
    ref, alt : list of str
        Alleles in upper case (letters ACGTN).
    line : numpy.ndarray of int64
        1-based line of each variant in the file.
    skipped : dict of str to int
        Alleles left out while reading, by reason.
    """

    path: str
    chrom: list[str] = field(default_factory=list)
    pos: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    id: list[str] = field(default_factory=list)
    ref: list[str] = field(default_factory=list)
    alt: list[str] = field(default_factory=list)
    line: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    skipped: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.ref)

    def by_chromosome(self) -> dict[str, np.ndarray]:
        """Row indices of each chromosome, chromosomes in order of first appearance.

        Returns
        -------
        dict of str to numpy.ndarray of int64
            Rows ascending within each chromosome.
        """
        index: dict[str, int] = {}
        group = np.fromiter(
            (index.setdefault(c, len(index)) for c in self.chrom), np.int64, len(self)
        )
        order = np.argsort(group, kind="stable")
        bounds = np.searchsorted(group[order], np.arange(len(index) + 1))
        return {c: order[bounds[g] : bounds[g + 1]] for c, g in index.items()}


@dataclass
class PairTable:
    """Reference / alternative sequence pairs, in input order.

    Attributes
    ----------
    path : str
    id, ref, alt : list of str
        Sequences in upper case.
    line : numpy.ndarray of int64
        1-based line of each pair.
    """

    path: str
    id: list[str]
    ref: list[str]
    alt: list[str]
    line: np.ndarray

    def __len__(self) -> int:
        return len(self.ref)


def _lines(path: str) -> list[str]:
    from ..io.fasta import read_text

    return read_text(path).split("\n")


def is_symbolic(allele: str) -> bool:
    """Whether an ALT allele is no sequence: ``<...>``, a breakend, ``*`` or ``.``.

    Parameters
    ----------
    allele : str
        One ALT allele.

    Returns
    -------
    bool

    Examples
    --------
    >>> [is_symbolic(a) for a in ("<DEL>", "G]chr2:5]", "*", ".", "TA")]
    [True, True, True, True, False]
    """
    return allele in ("*", ".") or allele[:1] == "<" or "[" in allele or "]" in allele


def _bad_letters(text: str) -> bool:
    return not text or bool(text.strip(_BASES))


def read_vcf(path: str | os.PathLike) -> VariantTable:
    r"""Read the variants of a VCF file (plain or gzip).

    Parameters
    ----------
    path : str or path-like
        The VCF.

    Returns
    -------
    VariantTable
        One row per ALT allele; symbolic, ``*`` and ``.`` alleles skipped and
        counted in ``skipped``.

    Raises
    ------
    InputError
        Naming the file and line: a variant before the ``#CHROM`` header
        line, fewer than 5 columns, an empty CHROM, a POS that is not a
        positive integer, a REF or ALT with letters other than ACGTN.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     name = os.path.join(folder, "v.vcf")
    ...     with open(name, "w") as handle:
    ...         _ = handle.write("##fileformat=VCFv4.2\n"
    ...                          "#CHROM\tPOS\tID\tREF\tALT\n"
    ...                          "chr1\t5\t.\tA\tC,<DEL>,TT\n")
    ...     table = read_vcf(name)
    >>> table.id, table.alt, sum(table.skipped.values())
    (['chr1:5:A:C', 'chr1:5:A:TT'], ['C', 'TT'], 1)
    """
    name = os.fspath(path)
    table = VariantTable(name)
    chrom, pos, ids, refs, alts, lines = [], [], [], [], [], []
    n_symbolic = 0
    header = False  # the #CHROM line seen
    for number, text in enumerate(_lines(name), 1):
        if not text or text[0] == "#":
            header = header or text.startswith("#CHROM")
            continue
        if not header:
            raise InputError(
                f"line {number}: a variant before the #CHROM header line (a VCF "
                "names its columns there, as bcftools requires)",
                path=name,
            )
        fields = text.split("\t", 5)
        if len(fields) < 5:
            raise InputError(
                f"line {number}: expected the tab-separated columns CHROM POS ID REF "
                f"ALT, found {len(fields)} column(s)",
                path=name,
            )
        c, p, vid, ref, alt = fields[:5]
        if not c or c != c.strip():
            raise InputError(
                f"line {number}: CHROM {c!r} is empty or padded", path=name
            )
        if not p.isdigit() or int(p) < 1:
            raise InputError(
                f"line {number}: POS {p!r} is not a positive integer", path=name
            )
        if _bad_letters(ref):
            raise InputError(
                f"line {number}: REF {ref!r} must be letters A, C, G, T or N",
                path=name,
            )
        ref = ref.upper()
        for allele in alt.split(","):
            if is_symbolic(allele):
                n_symbolic += 1
                continue
            if _bad_letters(allele):
                raise InputError(
                    f"line {number}: ALT {allele!r} must be letters A, C, G, T or N "
                    "(or a symbolic allele, which is skipped)",
                    path=name,
                )
            allele = allele.upper()
            chrom.append(c)
            pos.append(p)
            ids.append(f"{c}:{p}:{ref}:{allele}" if vid == "." or not vid else vid)
            refs.append(ref)
            alts.append(allele)
            lines.append(number)
    table.chrom, table.id, table.ref, table.alt = chrom, ids, refs, alts
    table.pos = np.array(pos, dtype=np.int64) if pos else np.zeros(0, np.int64)
    table.line = np.array(lines, dtype=np.int64)
    if n_symbolic:
        table.skipped[SYMBOLIC] = n_symbolic
    return table


def read_pairs(path: str | os.PathLike) -> PairTable:
    """Read a table of sequence pairs: ``id``, ``ref``, ``alt``, tab-separated.

    Lines starting with ``#`` and blank lines are passed over; a first line
    ``id ref alt`` (any case) is a header.

    Parameters
    ----------
    path : str or path-like
        The table (plain or gzip).

    Returns
    -------
    PairTable

    Raises
    ------
    InputError
        Naming the file and line: not three columns, an empty id, or sequences
        with letters other than ACGTN.
    """
    name = os.fspath(path)
    ids, refs, alts, lines = [], [], [], []
    for number, text in enumerate(_lines(name), 1):
        if not text.strip() or text[0] == "#":
            continue
        fields = text.split("\t")
        if not ids and [f.strip().lower() for f in fields] == ["id", "ref", "alt"]:
            continue
        if len(fields) != 3:
            raise InputError(
                f"line {number}: expected 3 tab-separated columns (id, ref, alt), "
                f"found {len(fields)}",
                path=name,
            )
        vid, ref, alt = fields
        if not vid:
            raise InputError(f"line {number}: the id is empty", path=name)
        for what, seq in (("ref", ref), ("alt", alt)):
            if _bad_letters(seq):
                raise InputError(
                    f"line {number}: the {what} sequence must be letters A, C, G, T "
                    "or N",
                    path=name,
                )
        ids.append(vid)
        refs.append(ref.upper())
        alts.append(alt.upper())
        lines.append(number)
    if not ids:
        raise InputError("no sequence pairs in the file", path=name)
    return PairTable(name, ids, refs, alts, np.array(lines, dtype=np.int64))


def check_chromosomes(table: VariantTable, genome: Genome) -> None:
    """Raise `InputError` for the first variant on a chromosome the genome lacks.

    Parameters
    ----------
    table : VariantTable
    genome : Genome
        Anything with ``path`` and ``lengths`` (dict of chromosome lengths).
    """
    for chrom, rows in table.by_chromosome().items():
        if chrom not in genome.lengths:
            shown = ", ".join(list(genome.lengths)[:5])
            more = ", ..." if len(genome.lengths) > 5 else ""
            raise InputError(
                f"line {int(table.line[rows[0]])}: chromosome {chrom!r} is not in "
                f"the genome {genome.path} (it has {shown}{more})",
                path=table.path,
            )


def check_ref(
    table: VariantTable,
    rows: np.ndarray,
    codes: np.ndarray,
    skip_mismatched_ref: bool = False,
) -> np.ndarray:
    """Which variants of one chromosome have the genome's letters as REF.

    Parameters
    ----------
    table : VariantTable
    rows : numpy.ndarray of int
        The variants, all on the chromosome of ``codes``.
    codes : numpy.ndarray of uint8
        The chromosome's genome codes (case-insensitive: soft-masked letters
        code as upper case; N is 4).
    skip_mismatched_ref : bool, default=False
        Return False for a mismatch instead of raising.

    Returns
    -------
    numpy.ndarray of bool, shape (len(rows),)
        True where REF matches (a REF running past the chromosome end does
        not match).

    Raises
    ------
    InputError
        Naming the file and line of the first mismatch (in file order), unless
        ``skip_mismatched_ref``.
    """
    rows = np.asarray(rows, dtype=np.int64)
    start = table.pos[rows] - 1
    n_ref = np.fromiter((len(table.ref[r]) for r in rows), np.int64, rows.size)
    inside = start + n_ref <= codes.size
    ok = np.zeros(rows.size, dtype=bool)
    single = inside & (n_ref == 1)
    if single.any():
        letters = "".join(table.ref[r] for r in rows[single])
        ok[single] = codes[start[single]] == text_codes(letters)
    for i in np.flatnonzero(inside & (n_ref > 1)):
        s = start[i]
        ok[i] = np.array_equal(codes[s : s + n_ref[i]], text_codes(table.ref[rows[i]]))
    if not skip_mismatched_ref and not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        r = int(rows[i])
        s = int(start[i])
        found = "".join("ACGTN"[c] for c in codes[s : s + int(n_ref[i])])
        raise InputError(
            f"line {int(table.line[r])}: REF {table.ref[r]} does not match the genome "
            f"at {table.chrom[r]}:{int(table.pos[r])} ({found or 'past the end'}); "
            "is it the right genome build? (--skip-mismatched-ref skips such lines)",
            path=table.path,
        )
    return ok
