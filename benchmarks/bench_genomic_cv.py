"""How much random folds inflate the AUC of peaks in a genome (issue 42, part 2).

Each run writes two fresh synthetic genomes of one design (seeded): genome A
for training and cross-validation, genome B (ten other chromosomes, other repeat
copies, same process) as new loci to test on. What the design holds, as real
peak sets do:

* a short degenerate motif (AP-1's ``TGASTCA``, 90 % per letter) at 80 % of
  the unique peaks' summits: the signal that generalises;
* on every chromosome, a family of its own repeat copies (a 400-letter
  element, 2 % divergent copies, as segmental duplications and locally
  expanded repeats are), a third of them bound: peaks in repeats whose
  siblings sit on the same chromosome;
* split summits: a fifth of the unique peaks called twice, 60 letters apart,
  so their windows overlap.

Negatives are poimkit's matched genomic windows. The same model (gkm, or WD;
parameters chosen by the nested inner CV, as a default run does) is
cross-validated on A with random folds and with folds of whole chromosomes
(`poimkit.svm.folds`, inner folds too), then trained on all of A and tested
on B. The honest figure is B's AUC; the inflation of a split is its CV AUC
minus B's.

What it measures: the inflation of random folds (mean over seeds), against
the folds of whole chromosomes' (goal: within 0.02 of the new loci's AUC on
average over seeds). Every row also gives the two estimates' combined
Hanley-McNeil error; it leaves out the spread between chromosomes, which on
ten chromosomes of different GC is the larger part of a single estimate's.

Usage: ``python benchmarks/bench_genomic_cv.py [--seeds 4301,4302,4303]
[--kernels gkm,wd] [--out genomic_cv.json]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_info import jsonable, machine, versions  # noqa: E402

LETTERS = np.array(list("ACGT"))
MOTIF = "TGASTCA"
IUPAC = {"A": "A", "C": "C", "G": "G", "T": "T", "S": "CG"}
WIDTH = 200


def _letters(rng, n, gc):
    p = np.array([(1 - gc) / 2, gc / 2, gc / 2, (1 - gc) / 2])
    return rng.choice(4, size=n, p=p).astype(np.uint8)


def _mutated(rng, codes, rate):
    out = codes.copy()
    hit = rng.random(out.size) < rate
    out[hit] = (out[hit] + rng.integers(1, 4, hit.sum())) % 4
    return out


def _site(rng, conservation=0.9):
    site = []
    for letter in MOTIF:
        choices = IUPAC[letter]
        if rng.random() < conservation:
            site.append("ACGT".index(rng.choice(list(choices))))
        else:
            site.append(int(rng.integers(4)))
    codes = np.array(site, dtype=np.uint8)
    return codes if rng.random() < 0.5 else (3 - codes[::-1])


def write_genome(folder: Path, seed: int, n_chrom: int, prefix: str) -> dict:
    """A genome FASTA and its peaks (BED6 with summit names), as the docstring says."""
    rng = np.random.default_rng(seed)
    length, per_chrom, copies = 600_000, 40, 15
    fasta, bed = [], []
    counts = {"motif_peaks": 0, "repeat_peaks": 0, "split_summits": 0}
    for c in range(n_chrom):
        name = f"{prefix}{c + 1}"
        x = _letters(rng, length, rng.uniform(0.38, 0.52))
        slots = rng.permutation(length // 2000 - 2)[: per_chrom + copies] + 1
        element = _letters(rng, 400, 0.45)
        summits = []
        for k, slot in enumerate(slots[:copies]):  # the chromosome's repeat copies
            start = slot * 2000 + 500
            x[start : start + 400] = _mutated(rng, element, 0.02)
            if k % 3 == 0:
                summits.append(start + 200)
                counts["repeat_peaks"] += 1
        for slot in slots[copies:]:  # unique peaks, most with the motif
            summit = slot * 2000 + 1000 + int(rng.integers(-200, 200))
            if rng.random() < 0.8:
                at = summit + int(rng.integers(-20, 20))
                x[at : at + len(MOTIF)] = _site(rng)
                counts["motif_peaks"] += 1
            summits.append(summit)
            if rng.random() < 0.2:
                summits.append(summit + 60)
                counts["split_summits"] += 1
        for n, summit in enumerate(sorted(summits)):
            bed.append(f"{name}\t{summit - 150}\t{summit + 150}\tp{c}_{n}\t0\t+\n")
        fasta.append(f">{name}\n" + "".join(LETTERS[x]) + "\n")
    genome, peaks = folder / f"{prefix}.fa", folder / f"{prefix}.bed"
    genome.write_text("".join(fasta))
    peaks.write_text("".join(bed))
    return {"genome": genome, "peaks": peaks, "n_peaks": len(bed), **counts}


def _data(made: dict, options):
    from poimkit.run.genome import PeakSource, read_peak_input

    source = PeakSource(str(made["peaks"]), str(made["genome"]), width=WIDTH)
    return read_peak_input(source, options).data


def run_case(kernel: str, a: dict, b: dict, seed: int) -> dict:
    from sklearn.metrics import roc_auc_score

    from poimkit.run import RunOptions
    from poimkit.run.plan import make_plan
    from poimkit.run.train import train_model

    params = {"kernel": kernel, "seed": seed, "cv": 5}
    data_a = _data(a, RunOptions(**params))
    data_b = _data(b, RunOptions(**params))
    row = {"kernel": kernel, "n_a": int(data_a.y.size), "n_b": int(data_b.y.size)}
    for by in ("random", "chrom"):
        options = RunOptions(**params, cv_by=by)
        started = time.perf_counter()
        trained = train_model(data_a, make_plan(data_a, options))
        row[f"cv_{by}"] = round(float(trained.cv.figure()), 4)
        row[f"cv_{by}_split"] = trained.cv.split
        row[f"seconds_{by}"] = round(time.perf_counter() - started, 1)
    scores = trained.model.decision_function(data_b.X)
    auc = float(roc_auc_score(data_b.y, scores))
    row["new_loci"] = round(auc, 4)
    se = np.hypot(_auc_se(auc, data_b.y), _auc_se(row["cv_chrom"], data_a.y))
    row["difference_se"] = round(float(se), 4)
    row["inflation_random"] = round(row["cv_random"] - row["new_loci"], 4)
    row["inflation_chrom"] = round(row["cv_chrom"] - row["new_loci"], 4)
    row["within_2se"] = bool(abs(row["inflation_chrom"]) <= 2 * se)
    return row


def _auc_se(auc: float, y: np.ndarray) -> float:
    """Hanley and McNeil's (1982) standard error of an AUC."""
    n1, n0 = int((y == 1).sum()), int((y == 0).sum())
    q1, q2 = auc / (2 - auc), 2 * auc**2 / (1 + auc)
    var = auc * (1 - auc) + (n1 - 1) * (q1 - auc**2) + (n0 - 1) * (q2 - auc**2)
    return float(np.sqrt(var / (n1 * n0)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="4301,4302,4303")
    parser.add_argument("--kernels", default="gkm,wd")
    parser.add_argument("--out", default=str(HERE / "genomic_cv.json"))
    args = parser.parse_args()
    rows = []
    for seed in map(int, args.seeds.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            a = write_genome(Path(tmp), seed, 10, "chr")
            b = write_genome(Path(tmp), seed + 1000, 10, "new")
            design = {k: v for k, v in a.items() if k not in ("genome", "peaks")}
            print(f"seed {seed}, genome A: {design}")
            for kernel in args.kernels.split(","):
                row = {"seed": seed, **run_case(kernel, a, b, seed), "design": design}
                rows.append(row)
                print(json.dumps(row))
    means = {}
    for kernel in args.kernels.split(","):
        mine = [r for r in rows if r["kernel"] == kernel]
        means[kernel] = {
            name: round(float(np.mean([r[name] for r in mine])), 4)
            for name in ("inflation_random", "inflation_chrom")
        }
        means[kernel]["goal_met"] = abs(means[kernel]["inflation_chrom"]) <= 0.02
        print(f"{kernel}: mean over seeds {means[kernel]}")
    document = {
        "benchmark": "genomic_cv",
        "means": means,
        "rows": rows,
        "machine": machine(),
        "versions": versions(),
    }
    Path(args.out).write_text(json.dumps(jsonable(document), indent=1) + "\n")


if __name__ == "__main__":
    main()
