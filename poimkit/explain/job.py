"""``poimkit explain``'s job: a folder of a model's attributions of records or peaks.

`explain_to_folder` writes ``ohe.npz`` and ``attr.npz`` (for ``modisco motifs
-s ohe.npz -a attr.npz``), ``scores.tsv``, ``logos/`` of the records of
highest score, for peaks ``contributions.bw`` (`poimkit.explain.outputs`),
``attribution_poim.npz`` (`poimkit.explain.kmer_poim`: k-mers' attributions
in context) and ``summary.json``, all or nothing. The attributions are
`poimkit.explain.records.explain_records`': exact for k-mer models, by
in-silico mutagenesis for models that only score.
"""

from __future__ import annotations

import os
from typing import Any

from .._messages import inform, tell
from ..additive import position_free
from ..errors import InputError

__all__ = ["TOP_LOGOS", "explain_to_folder"]

#: logos drawn unless ``top`` says otherwise
TOP_LOGOS = 10


def explain_to_folder(
    out: str | os.PathLike,
    model_path: str | os.PathLike,
    *,
    fasta: str | None = None,
    bed: str | None = None,
    genome: str | None = None,
    width: int | None = None,
    top: int = TOP_LOGOS,
    max_order: int = 6,
    force: bool = False,
    load_options: dict | None = None,
    quiet: bool = False,
) -> dict:
    """Explain the records of ``fasta`` (or the peaks of ``bed``) into ``out``.

    Parameters
    ----------
    out : str or path-like
        The output folder (replaced with ``force`` if poimkit made it).
    model_path : str or path-like
        The model file (`poimkit.load_model`).
    fasta : str, optional
        The records to explain.
    bed, genome : str, optional
        Peaks in a genome instead: windows of ``width`` around their summits.
    width : int, optional
        The windows' width (default: the model's length, 200 if it has none).
    top : int, default=10
        Logos of the records of highest score.
    max_order : int, default=6
        Longest k-mer of the attribution POIM (at most the shortest record).
    force : bool, default=False
        Replace an existing folder that poimkit made.
    load_options : dict, optional
        For a torch file: ``input_length``, ``output`` and ``reduce``.
    quiet : bool, default=False
        No notice while a genome is indexed.

    Returns
    -------
    dict
        The content of ``summary.json``.
    """
    from ..io.outdir import (
        LAYOUT,
        RUN_FORMAT,
        check_output_folder,
        staged_directory,
    )
    from ..model_files import load_model
    from .outputs import NO_BIGWIG, has_bigwig
    from .records import explain_records

    if top < 0:
        raise InputError(f"--top must be 0 or more, got {top}")
    if max_order < 1:
        raise InputError(f"--max-order must be 1 or more, got {max_order}")
    if (fasta is None) == (bed is None):
        raise InputError("give --fasta, or --bed and --genome")
    inputs = tuple(os.fspath(p) for p in (model_path, fasta, bed, genome) if p)
    check_output_folder(out, force, inputs)
    bigwig = bed is not None and has_bigwig()
    if bed is not None and not bigwig:
        tell(NO_BIGWIG)
    model = load_model(model_path, **(load_options or {}))
    if fasta is not None:
        ids, seqs, sizes = _fasta_records(fasta)
    else:
        ids, seqs, sizes = _peak_records(model, bed, genome, width, quiet)
    if not seqs:
        raise InputError("no records to explain")
    skipped = {"bigwig_skipped": NO_BIGWIG} if bed is not None and not bigwig else {}
    found, scores, method = explain_records(model, seqs)
    order = min(max_order, min(len(s) for s in seqs))
    summary = {
        "format": RUN_FORMAT,
        "command": "explain",
        "model": str(model_path),
        "n_records": len(ids),
        "attributions": method,
        "length": int(found.ohe.shape[2]),
        "attribution_poim_max_order": order,
        "logos": [],
        "bigwig": bigwig,
        **skipped,
    }
    with staged_directory(out, force, inputs) as staged:
        _write(staged, found, scores, ids, sizes if bigwig else None, top, summary)
    inform(
        f"explained {len(ids):,} records into {out} (ohe.npz, attr.npz, "
        f"{LAYOUT.attribution_poim}"
        + (", contributions.bw" if bigwig else "")
        + f", {len(summary['logos'])} logos)"
    )
    return summary


def _fasta_records(fasta: str) -> tuple[list, list, None]:
    """``(ids, seqs, None)``: the records of a FASTA file, any lengths."""
    from ..io import read_fasta

    ids, seqs = read_fasta(fasta, any_length=True)[:2]
    return list(ids), list(seqs), None


def _peak_records(model: Any, bed: str, genome: str | None, width, quiet: bool):
    """``(ids, seqs, sizes)``: the peaks' windows, and the chromosome sizes."""
    from ..genome.peaks import check_chromosomes, extract, read_peaks
    from ..genome.reference import open_genome

    if not genome:
        raise InputError("--bed needs --genome")
    if width is None:
        width = 200 if position_free(model) else model.length_
    peaks = read_peaks(bed)
    with open_genome(genome, quiet=quiet) as opened:
        check_chromosomes(peaks, opened)
        kept = extract(opened, peaks.windows(width), "peak windows")
        sizes = dict(opened.lengths)
    return list(kept.ids), list(kept.seqs), sizes


def _write(staged, found, scores, ids, sizes, top: int, summary: dict) -> None:
    """Attributions, their POIM, scores, logos, the track (``sizes``), the summary."""
    from ..io.files import write_table
    from ..io.json_text import json_text
    from ..io.outdir import LAYOUT
    from .kmer_poim import attribution_poim
    from .outputs import write_bigwig, write_logos, write_modisco_inputs

    write_modisco_inputs(staged, found)
    attribution_poim(found, summary["attribution_poim_max_order"]).save(
        staged / LAYOUT.attribution_poim
    )
    rows = zip(ids, scores.tolist(), strict=True)
    write_table(staged / LAYOUT.scores, ["id", "score"], rows)
    if sizes is not None:
        write_bigwig(staged / LAYOUT.contributions, found, ids, sizes)
    summary["logos"] = write_logos(staged / LAYOUT.logos, found, scores, ids, top)
    (staged / LAYOUT.summary).write_text(json_text(summary, indent=1))
