"""The whole genome road on real data: a 1 Mb piece of hg19 chr22 (../shared/data).

GM12878 CTCF peaks -> matched genomic negatives -> model -> dbSNP variants
with their null -> an annotated, indexed VCF. The REF of every dbSNP SNV is
checked against the real sequence on the way.
"""

import shutil
from pathlib import Path

import pytest

from poimkit.cli import main

from ..cli_runs import strict_json

HG19 = Path(__file__).resolve().parents[3] / "shared" / "data" / "hg19_chr22"

pytestmark = pytest.mark.skipif(
    not (HG19 / "genome.fa").exists(), reason="needs ../shared/data/hg19_chr22"
)


def test_peaks_to_called_variants_on_hg19(tmp_path, capsys):
    pysam = pytest.importorskip("pysam")
    genome = tmp_path / "genome.fa"  # its index is written beside it
    shutil.copy(HG19 / "genome.fa", genome)
    out = tmp_path / "run"
    argv = ["run", "--bed", str(HG19 / "ctcf_peaks.bed"), "--genome", str(genome)]
    argv += ["--kernel", "gkm", "--no-grid", "--cv", "2", "--max-motifs", "1"]
    assert main([*argv, "-o", str(out), "--quiet"]) == 0
    summary = strict_json(out / "summary.json")
    assert summary["n_positive"] == 23 and summary["negatives"]["kind"] == "genomic"
    assert summary["n_negative"] >= 20  # matched in the real GC and repeats
    # one chromosome piece: no chromosome or 10 Mb block to hold out, and said
    assert summary["cv_split"] == "random" and "too few" in summary["cv_split_note"]
    calls = tmp_path / "calls.vcf.gz"
    argv = ["variants", str(out / "model.npz"), "--vcf", str(HG19 / "dbsnp.vcf")]
    argv += ["--genome", str(genome), "--calls", "0.05", "--null", "20000"]
    assert main([*argv, "-o", str(calls)]) == 0
    captured = capsys.readouterr()
    assert "REF not matching" not in captured.err  # real coordinates agree
    assert "negatives.bed" in captured.out  # the run's own negatives as the null
    with pysam.VariantFile(str(calls)) as vcf:
        records = list(vcf.fetch("chr22_20M_21M", 0, 1_000_000))
    scored = [r for r in records if r.info.get("POIM_EFFECT", (None,))[0] is not None]
    assert len(records) == 3174 and len(scored) >= 3000
    assert all(0 < r.info["POIM_Q"][0] <= 1 for r in scored)
    # every SNV of the 23 peaks: the dbSNP SNVs among them have the VCF's effects
    table = tmp_path / "snvs.tsv.gz"
    argv = ["variants", str(out / "model.npz"), "--all-snvs"]
    argv += ["--bed", str(HG19 / "ctcf_peaks.bed"), "--genome", str(genome)]
    assert main([*argv, "--null", "20000", "-o", str(table), "--quiet"]) == 0
    in_vcf = {
        (r.pos, r.alts[0]): r.info["POIM_EFFECT"][0]
        for r in scored
        if len(r.ref) == 1 and len(r.alts[0]) == 1
    }
    shared = 0
    with pysam.TabixFile(str(table)) as snvs:
        for line in snvs.fetch("chr22_20M_21M", 0, 1_000_000):
            _, pos, _, alt, effect = line.split("\t")[:5]
            if (int(pos), alt) in in_vcf:
                assert float(effect) == pytest.approx(in_vcf[int(pos), alt], rel=1e-5)
                shared += 1
    assert shared >= 10  # dbSNP SNVs inside the peaks' windows
