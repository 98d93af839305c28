"""`poimkit run`/`train` on peaks in a genome: windows, negatives, errors."""

from collections import Counter

import numpy as np
import pytest

from poimkit.cli import main
from poimkit.datasets import write_synthetic_genome
from poimkit.genome.peaks import read_peaks
from poimkit.genome.reference import open_genome, text_codes
from poimkit.io import read_fasta
from poimkit.run import RunOptions, run_pipeline
from poimkit.run.genome import PeakSource

FAST = RunOptions(kernel="gkm", grid=False, C=1.0, cv=2, max_order=3, max_motifs=1)


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    return write_synthetic_genome(tmp_path_factory.mktemp("genome"), n_peaks=80, seed=4)


@pytest.fixture(scope="module")
def genomic_run(synthetic, tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "out"
    source = PeakSource(str(synthetic.peaks), str(synthetic.genome), width=100)
    summary = run_pipeline(out, options=FAST, progress=False, peaks=source)
    return out, summary


def _overlaps(a_start, a_end, b_start, b_end):
    return (a_start < b_end) & (b_start < a_end)


def test_genomic_negatives_match_and_avoid_peaks(genomic_run, synthetic):
    out, summary = genomic_run
    peaks = read_peaks(synthetic.peaks)
    negatives = read_peaks(out / "negatives.bed")
    assert summary.peaks["n_windows"] == len(peaks) == 80
    assert summary.negatives["kind"] == "genomic"
    assert summary.n_negative == len(negatives) == summary.negatives["matched"]
    genome = open_genome(synthetic.genome, quiet=True)
    for chrom, start, end in zip(
        negatives.chrom, negatives.start, negatives.end, strict=True
    ):
        assert end - start == 100
        same = np.array([c == chrom for c in peaks.chrom])
        hit = _overlaps(start, end, peaks.start[same], peaks.end[same])
        assert not hit.any(), (chrom, start, end)
        assert (text_codes(genome.fetch(chrom, int(start), int(end))) < 4).all()
    # the record ids name the windows read (bedtools getfasta -s style)
    roles = [i["role"] for i in summary.inputs]
    assert roles == ["peaks", "genome"]
    page = (out / "report.html").read_text()
    assert "windows of 100 letters around each summit" in page
    assert "negatives.bed" in page and "(of its .fai index)" in page


def test_windows_hold_the_planted_sites(synthetic):
    peaks = read_peaks(synthetic.peaks)
    windows = peaks.windows(100)
    assert (windows.end - windows.start == 100).all()
    assert (windows.start + 50 == synthetic.peak_summit).all()  # centred on summits
    m = len(synthetic.motif)
    at_peaks = synthetic.site_peak >= 0
    starts, at = synthetic.site_start[at_peaks], synthetic.site_peak[at_peaks]
    assert at.size > 60
    # a site covers [start, start + m) of the genome on either strand
    assert (windows.start[at] <= starts).all() and (starts + m <= windows.end[at]).all()
    ids = windows.ids
    assert ids[0] == f"{windows.chrom[0]}:{windows.start[0]}-{windows.end[0]}(+)"


def test_shuffle_negatives_keep_dinucleotides(synthetic, tmp_path):
    out = tmp_path / "out"
    source = PeakSource(
        str(synthetic.peaks), str(synthetic.genome), width=60, negatives="shuffle"
    )
    summary = run_pipeline(out, options=FAST, progress=False, peaks=source)
    assert summary.negatives["kind"] == "shuffle"
    ids, shuffled = read_fasta(out / "negatives.fa")
    genome = open_genome(synthetic.genome, quiet=True)
    peaks = read_peaks(synthetic.peaks).windows(60)
    for neg_id, seq in zip(ids, shuffled, strict=True):
        window = neg_id.split(":", 1)[1]
        i = peaks.ids.index(window)
        letters = genome.fetch(peaks.chrom[i], int(peaks.start[i]), int(peaks.end[i]))
        codes = text_codes(letters)
        if peaks.strand[i] == "-":
            codes = 3 - codes[::-1]
        pairs = Counter(zip(codes[:-1].tolist(), codes[1:].tolist(), strict=True))
        assert pairs == Counter(zip(seq[:-1].tolist(), seq[1:].tolist(), strict=True))
    assert summary.n_negative == summary.n_positive


def test_train_writes_negatives_beside_the_model(synthetic, tmp_path, capsys):
    model = tmp_path / "m.npz"
    args = ["train", "--bed", str(synthetic.peaks_bed3), "--genome"]
    args += [str(synthetic.genome), "--kernel", "gkm", "--no-grid", "--cv", "0"]
    assert main([*args, "-o", str(model), "--width", "80"]) == 0
    assert model.is_file()
    assert (tmp_path / "m.negatives.bed").is_file()
    assert "negatives written beside it" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("edit", "extra", "message"),
    [
        (lambda t: t + "chrZ\t10\t20\n", [], r"line 81: chromosome 'chrZ' is not in"),
        (lambda t: t, ["--width", "as-is", "--kernel", "wd"], "give a --width"),
        (lambda t: t, ["--negatives", "none.fa"], "none.fa: --negatives takes"),
        (lambda t: t, ["--pos", "x.fa"], "either --pos and --neg"),
    ],
)
def test_bad_peak_input_exits_2(synthetic, tmp_path, capsys, edit, extra, message):
    bed = tmp_path / "p.bed"
    bed.write_text(edit(synthetic.peaks_bed3.read_text()))
    out = tmp_path / "out"
    args = ["run", "--bed", str(bed), "--genome", str(synthetic.genome)]
    assert main([*args, *extra, "-o", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert __import__("re").search(message, err), err
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.bed"]


def test_motif_destroying_variants_rank_first(synthetic, tmp_path):
    """Peaks -> gkm model -> variants: the planted truth comes out on top.

    (A positional model trained on summit windows weighs the letters at the
    window's centre, where every variant is put: it ranks centre SNVs, not
    motif-destroying ones, first; see the genome benchmark.)
    """
    model = tmp_path / "m.npz"
    args = ["train", "--bed", str(synthetic.peaks), "--genome", str(synthetic.genome)]
    args += ["--kernel", "gkm", "--no-grid", "--cv", "0", "--width", "60"]
    assert main([*args, "-o", str(model), "--quiet"]) == 0
    effects = tmp_path / "effects.tsv"
    args = ["variants", str(model), "--vcf", str(synthetic.vcf), "--genome"]
    assert main([*args, str(synthetic.genome), "-o", str(effects), "--quiet"]) == 0
    lines = effects.read_text().splitlines()
    header = lines[0].split("\t")
    rows = [dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:]]
    assert len(rows) > len(synthetic.causal_ids) + len(synthetic.neutral_ids) // 2
    rows.sort(key=lambda row: -abs(float(row["effect"])))
    causal = set(synthetic.causal_ids)
    top = rows[: len(causal) // 2]
    assert sum(row["id"] in causal for row in top) >= 0.9 * len(top)
    # destroying a site lowers the score
    assert all(float(row["effect"]) < 0 for row in top if row["id"] in causal)


def test_peak_runs_hold_out_whole_chromosomes(genomic_run, synthetic, tmp_path):
    _, summary = genomic_run
    assert summary.cv.split == "chromosome"
    held = [set(fold["chromosomes"]) for fold in summary.cv.folds]
    assert len(held) == 2 and not held[0] & held[1]
    assert held[0] | held[1] == {"chr1", "chr2", "chr3"}
    assert [fold["auc"] for fold in summary.cv.folds] == summary.cv.figures[
        "cv_auc_folds"
    ]
    source = PeakSource(str(synthetic.peaks), str(synthetic.genome), width=100)
    options = RunOptions(**{**FAST.__dict__, "cv_by": "random"})
    out = tmp_path / "r"
    summary = run_pipeline(out, options=options, progress=False, peaks=source)
    assert summary.cv.split == "random" and "chromosomes" not in summary.cv.folds[0]


def test_cv_by_chrom_needs_genomic_ids(tmp_path, capsys):
    pos, neg = tmp_path / "p.fa", tmp_path / "n.fa"
    pos.write_text("".join(f">p{i}\nACGTACGTAC\n" for i in range(6)))
    neg.write_text("".join(f">n{i}\nTTGCATGCAA\n" for i in range(6)))
    args = ["train", "--pos", str(pos), "--neg", str(neg), "--no-grid", "--cv", "2"]
    code = main([*args, "--cv-by", "chrom", "-o", str(tmp_path / "m.npz")])
    err = capsys.readouterr().err
    assert code == 2 and "'p0'" in err and "chrom:start-end" in err
