"""``sites.bed`` of a peak run: BED6 in genome coordinates, both peak strands."""

from dataclasses import replace

import numpy as np

from poimkit.datasets import write_synthetic_genome
from poimkit.genome.reference import open_genome
from poimkit.run import RunOptions, run_pipeline
from poimkit.run.genome import PeakSource

FAST = RunOptions(kernel="gkm", grid=False, C=1.0, cv=2, max_order=6, max_motifs=1)
COMPLEMENT = np.array([3, 2, 1, 0], dtype=np.uint8)


def test_sites_bed_points_at_the_sites_letters(tmp_path):
    g = write_synthetic_genome(
        tmp_path / "g", n_peaks=150, chromosome_length=400_000, seed=8
    )
    # the narrowPeak's summits with the BED6's strands: minus windows too
    peaks = tmp_path / "stranded.narrowPeak"
    lines = g.peaks.read_text().splitlines()
    strands = [line.split("\t")[5] for line in g.peaks_bed6.read_text().splitlines()]
    peaks.write_text(
        "".join(
            "\t".join([*f[:5], strand, *f[6:]]) + "\n"
            for f, strand in zip((x.split("\t") for x in lines), strands, strict=True)
        )
    )
    out = tmp_path / "out"
    source = PeakSource(str(peaks), str(g.genome), width=100)
    summary = run_pipeline(out, options=FAST, progress=False, peaks=source)
    widths = {m["name"]: len(m["iupac"]) for m in summary.motifs}
    lines = (out / "sites.bed").read_text().splitlines()
    assert lines, "the planted motif has sites in the peaks"
    rows = [line.split("\t") for line in lines]
    assert all(len(r) == 6 for r in rows)
    keys = [(r[0], int(r[1])) for r in rows]
    assert keys == sorted(keys)
    assert all(0 <= int(r[4]) <= 1000 and r[5] in "+-" for r in rows)
    # the sites of sites.tsv in positives, read on their strand ...
    tsv = [line.split("\t") for line in (out / "sites.tsv").read_text().splitlines()]
    in_peaks = [r for r in tsv[1:] if r[1] == "1"]
    assert len(in_peaks) == len(rows)
    assert any(r[0].endswith("(-)") for r in in_peaks), "minus-strand windows too"
    with open_genome(g.genome, quiet=True) as genome:
        from_bed = sorted(_read(genome, r[0], int(r[1]), int(r[2]), r[5]) for r in rows)
        from_tsv = sorted(_site_in_record(genome, r, widths[r[2]]) for r in in_peaks)
    # ... are the letters the BED rows point at, on their strand
    assert from_bed == from_tsv
    # a folder holding sites.bed is poimkit's own: --force replaces it
    options = replace(FAST, cv=0)
    run_pipeline(out, options=options, progress=False, peaks=source, force=True)


def _read(genome, chrom, start, end, strand):
    letters = genome.codes(chrom)[start:end]
    return tuple((COMPLEMENT[letters[::-1]] if strand == "-" else letters).tolist())


def _site_in_record(genome, row, width):
    """A site of sites.tsv read from its window as the record holds it."""
    name, _, _, start, strand, _ = row
    chrom, span = name.split(":")
    lo, hi = (int(v) for v in span.split("(")[0].split("-"))
    record = genome.codes(chrom)[lo:hi]
    if name.endswith("(-)"):
        record = COMPLEMENT[record[::-1]]
    site = record[int(start) - 1 : int(start) - 1 + width]
    return tuple((COMPLEMENT[site[::-1]] if strand == "-" else site).tolist())
