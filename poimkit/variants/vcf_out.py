"""The input VCF written back with the effects as INFO fields, bgzipped and indexed.

Every line of the input is kept as it was, with five INFO fields added per
ALT allele (``Number=A``; ``.`` for an allele not scored, e.g. symbolic):
``POIM_EFFECT``, ``POIM_Z``, ``POIM_P``, ``POIM_Q`` and ``POIM_TOP`` (the top
k-mer changes, ``REF>ALT@START:CHANGE`` joined by ``|``). Records are
sorted by the genome's chromosome order and POS (tabix needs it). The file is
compressed with BGZF and indexed with tabix by pysam (htslib's own code), so
bcftools, IGV and tabix read it; pysam is the optional extra ``vcf``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..errors import InputError

__all__ = [
    "INFO_FIELDS",
    "check_vcf_output",
    "is_vcf_output",
    "vcf_lines",
    "write_vcf",
]

#: (ID, Type, Description) of the INFO fields added.
INFO_FIELDS = (
    ("POIM_EFFECT", "Float", "poimkit: model score change, alt minus ref"),
    ("POIM_Z", "Float", "poimkit: effect in standard deviations of the null"),
    ("POIM_P", "Float", "poimkit: two-sided empirical p-value against the null"),
    ("POIM_Q", "Float", "poimkit: Benjamini-Hochberg q-value over the file"),
    ("POIM_TOP", "String", "poimkit: top k-mer changes REF>ALT@START:CHANGE, |-joined"),
)


#: the INFO fields poimkit writes (replaced when a scored VCF is scored again)
OWN = frozenset(name for name, _, _ in INFO_FIELDS)
#: POIM_Q's description with ``--bed``: two families, a stratified FDR
STRATIFIED_Q = (
    "poimkit: Benjamini-Hochberg q-value within the variants in peaks, and "
    "within the others (stratified FDR)"
)
#: The fixed columns of a VCF's header line.
FIXED = ("#CHROM", "POS", "ID", "REF", "ALT", "QUAL", "FILTER", "INFO")


def is_vcf_output(path: str) -> bool:
    """Whether ``-o`` asks for a VCF (``.vcf.gz`` or ``.vcf.bgz``).

    Parameters
    ----------
    path : str
    """
    return path.endswith((".vcf.gz", ".vcf.bgz"))


def check_vcf_output(path: str) -> None:
    """Before any scoring: pysam importable, or exit 2 with the install line.

    Also for the other bgzipped, tabix-indexed output, the table of
    `poimkit.variants.all_snvs`.

    Parameters
    ----------
    path : str
        The output VCF (or table).

    Raises
    ------
    InputError
        Without pysam.
    """
    from importlib.util import find_spec

    if find_spec("pysam") is None:
        raise InputError(
            f"writing {path} (bgzip and tabix) needs pysam: "
            "pip install pysam (the vcf extra)"
        )


def _value(x: float) -> str:
    return "." if np.isnan(x) else f"{x:.6g}"


def _info(scores, rows: list[int]) -> str:
    """The added INFO text of one line's scored ALT rows (None: not scored)."""
    columns = []
    for values in (scores.effect, scores.z, scores.p, scores.q):
        columns.append(",".join("." if r is None else _value(values[r]) for r in rows))
    tops = []
    for r in rows:
        top = None if r is None or np.isnan(scores.effect[r]) else scores.top[r]
        tops.append("." if not top or top == "." else top.replace(";", "|"))
    columns.append(",".join(tops))
    return ";".join(
        f"{name}={text}"
        for (name, _, _), text in zip(INFO_FIELDS, columns, strict=True)
    )


def _is_own_header(text: str) -> bool:
    """Whether a header line declares one of poimkit's INFO fields."""
    start = "##INFO=<ID="
    return text.startswith(start) and text[len(start) :].split(",", 1)[0] in OWN


def _without_own(info: str) -> str:
    """An INFO column without poimkit's fields (of an earlier run); "" if empty."""
    if info in ("", "."):
        return ""
    return ";".join(e for e in info.split(";") if e.split("=", 1)[0] not in OWN)


def vcf_lines(
    table: Any, scores: Any, chromosomes: list[str], stratified: bool = False
) -> Iterator[str]:
    """The input VCF's lines with the INFO fields added, sorted (a generator).

    Records are sorted by chromosome (in ``chromosomes``' order) and POS,
    stably, as tabix needs; the header comes first as it was. poimkit's
    fields of an earlier run (a VCF scored again) are replaced, never
    repeated: readers take a key's first value.

    Parameters
    ----------
    table : VariantTable
        The variants (their ``line``).
    scores : object
        ``effect``, ``z``, ``p``, ``q`` and ``top`` arrays by row.
    chromosomes : list of str
        The genome's chromosomes, in order.
    stratified : bool, default False
        q-values within the variants in peaks and within the others
        (``--bed``), which POIM_Q's description then says.
    """
    from ..genome.vcf import is_symbolic
    from ..io.fasta import read_text

    by_line: dict[int, list[int]] = {}
    for row, line in enumerate(table.line.tolist()):
        by_line.setdefault(line, []).append(row)
    header = "\n".join(
        f'##INFO=<ID={name},Number=A,Type={kind},Description="'
        f'{STRATIFIED_Q if stratified and name == "POIM_Q" else text}">'
        for name, kind, text in INFO_FIELDS
    )
    rank = {name: i for i, name in enumerate(chromosomes)}
    records = []
    lines = read_text(table.path).split("\n")
    if not lines[0].startswith("##fileformat="):
        yield "##fileformat=VCFv4.2\n"  # the first line a VCF reader expects
    for number, text in enumerate(lines, 1):
        if not text:
            continue
        if text.startswith("#CHROM"):
            yield header + "\n"
            names = text.split("\t")  # the 8 fixed columns, at least
            text = "\t".join(names + list(FIXED[len(names) :]))
        if text[0] == "#":
            if not _is_own_header(text):
                yield text + "\n"
            continue
        fields = text.split("\t", 2)
        records.append((rank.get(fields[0], len(rank)), int(fields[1]), number, text))
    records.sort()
    for _, _, number, text in records:
        fields = text.split("\t")
        while len(fields) < 8:
            fields.append(".")
        mine = iter(by_line.get(number, []))
        rows = [
            None if is_symbolic(a) else next(mine, None) for a in fields[4].split(",")
        ]
        added = _info(scores, rows)
        kept = _without_own(fields[7])
        fields[7] = kept + ";" + added if kept else added
        yield "\t".join(fields) + "\n"


def write_vcf(
    path: str,
    table: Any,
    scores: Any,
    chromosomes: list[str],
    stratified: bool = False,
) -> None:
    """Write the annotated VCF, BGZF-compressed, and its tabix index ``.tbi``.

    Both files appear together through `poimkit.io.atomic_path` (inside the
    caller's `poimkit.io.commit_together`, with the table's other outputs).

    Parameters
    ----------
    path : str
        ``X.vcf.gz``; the index is ``X.vcf.gz.tbi``.
    table : VariantTable
        The variants, sorted (`check_vcf_output`).
    scores, chromosomes, stratified
        As in `vcf_lines`.
    """
    import pysam

    from ..io import atomic_path

    with atomic_path(path) as packed, atomic_path(path + ".tbi") as index:
        plain = os.path.join(os.path.dirname(packed), "." + os.path.basename(path))
        plain += ".plain.vcf"
        try:
            with open(plain, "w") as handle:
                for line in vcf_lines(table, scores, chromosomes, stratified):
                    handle.write(line)
            pysam.tabix_compress(plain, packed, force=True)
        finally:
            if os.path.exists(plain):
                os.remove(plain)
        pysam.tabix_index(packed, preset="vcf", force=True, index=index)
