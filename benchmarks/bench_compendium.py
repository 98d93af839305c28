"""A synthetic compendium through ``poimkit batch``: factors, families, zoo (issue 57).

A fresh compendium is written per run (seeded here, not tuned on):

genome
    ``--chromosomes`` chromosomes of GC isochores (35-60 % GC), one FASTA.
factors
    12 JASPAR matrices planted as drawn (real, degenerate motifs): CTCF,
    GATA1, SOX2, FOXA1, ELK1, NFYA, TEAD1, USF1; two bZIP variants whose cores
    differ (JUND, TRE ``TGAsTCA``; ATF3, CRE ``TGACGTCA``) and two homeodomain
    variants with one core (LHX9 and VSX2, ``TAATTA``, other flanks).
experiments (48)
    every factor in three replicates (its own peaks each; a site at the
    summit of 50, 60 or 70 % of them, either strand, jitter 10); six with a
    co-factor (a second factor's site near the summit in 40 % of the peaks);
    three of noise (peaks, no site); three ``model`` rows: LS-GKM files
    (`poimkit.GkmSVC` written by ``write_lsgkm``) trained on other peaks of a
    factor, two explained with their peaks as records, one alone.

Each peak row runs ``poimkit run``'s flags ``FLAGS`` (genomic negatives); the
batch runs on the default local cluster. Printed, per experiment: whether its
factor was found de novo (a positive-class motif whose best match among the
12 planted matrices, by the atlas's own similarity, is its factor or that
factor's same-core twin, at least ``THRESHOLD``); whether a noise row
reported any motif. Families: the adjusted Rand index between the atlas's
families and the planted factors (same-core twins one factor) over the found
motifs; factors split over families; whether the bZIP variants are apart and
the homeodomain variants together.

The model zoo: ``--zoo`` LS-GKM files, each of a factor (in turn) trained on
records written directly (100 letters, a site in 60 % of the positives),
explained by one batch of ``model`` rows without records (``--known
jaspar``): the time per model and the share whose top motif's best planted
match is its factor.

Usage: ``python benchmarks/bench_compendium.py [--seed 5701] [--peaks 300]
[--zoo 50] [--out compendium.json]``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

#: each factor's JASPAR matrix
FACTORS = {
    "CTCF": "MA0139.2",
    "GATA1": "MA0035.5",
    "SOX2": "MA0143.5",
    "FOXA1": "MA0148.5",
    "ELK1": "MA0028.3",
    "NFYA": "MA0060.4",
    "TEAD1": "MA0090.4",
    "USF1": "MA0093.4",
    "JUND": "MA0491.3",
    "ATF3": "MA0605.3",
    "LHX9": "MA0701.3",
    "VSX2": "MA0726.2",
}
#: the planted truth: same-core variants are one factor
TRUTH = {name: name for name in FACTORS} | {"VSX2": "LHX9"}
#: co-factor experiments: (factor, co-factor)
PAIRS = [
    ("JUND", "GATA1"),
    ("FOXA1", "NFYA"),
    ("SOX2", "TEAD1"),
    ("CTCF", "ELK1"),
    ("USF1", "LHX9"),
    ("ATF3", "SOX2"),
]
FLAGS = ["--kernel", "gkm", "--cv", "3", "--max-order", "6", "--known", "jaspar"]
WIDTH = 100
SLOT = 1000
THRESHOLD = 0.7


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def planted_pwms() -> dict:
    from poimkit.motifs.compare import known_motifs

    by_id = {m.name.split(" ", 1)[0]: m for m in known_motifs("jaspar")}
    return {name: by_id[jaspar] for name, jaspar in FACTORS.items()}


def experiments() -> list[dict]:
    """The 48 rows: name, factor, co-factor, site rate, kind."""
    rows = []
    for factor in FACTORS:
        for r, rate in enumerate((0.5, 0.6, 0.7), start=1):
            rows.append({"name": f"{factor}_r{r}", "factor": factor, "rate": rate})
    for factor, co in PAIRS:
        rows.append(
            {"name": f"{factor}_with_{co}", "factor": factor, "co": co, "rate": 0.6}
        )
    for i in range(3):
        rows.append({"name": f"noise_{i + 1}", "factor": None, "rate": 0.0})
    for i, factor in enumerate(("GATA1", "JUND", "TEAD1")):
        rows.append(
            {
                "name": f"model_{factor}",
                "factor": factor,
                "rate": 0.6,
                "model": True,
                "records": i < 2,
            }
        )
    return rows


def isochores(rng, length: int, lo: int, hi: int) -> np.ndarray:
    """Block boundaries 0 = b_0 < ... < b_r = length (lengths uniform in lo..hi)."""
    sizes = rng.integers(lo, hi + 1, size=length // lo + 2)
    bounds = np.r_[0, np.cumsum(sizes)]
    return np.r_[bounds[bounds < length], length].astype(np.int64)


def draw_letters(rng, gc: np.ndarray) -> np.ndarray:
    """Codes with P(C or G) = gc per position; C/G and A/T each half-half."""
    strong = rng.random(gc.size, dtype=np.float32) < gc
    half = rng.integers(0, 2, size=gc.size, dtype=np.uint8)
    return np.where(strong, 1 + half, 3 * half).astype(np.uint8)


def sample_pwm(rng, pwm: np.ndarray, n: int) -> np.ndarray:
    """``n`` rows of letter codes, column j drawn from ``pwm[j]``."""
    cum = np.cumsum(pwm, axis=1)
    u = rng.random((n, pwm.shape[0]))
    return (u[:, :, None] > cum[None, :, :3]).sum(axis=2).astype(np.uint8)


def write_genome(rng, chromosomes: int, length: int) -> list[np.ndarray]:
    codes = []
    for _ in range(chromosomes):
        bounds = isochores(rng, length, 20_000, 80_000)
        gc = np.repeat(rng.uniform(0.35, 0.6, bounds.size - 1), np.diff(bounds))
        codes.append(draw_letters(rng, gc))
    return codes


def write_genome_fasta(path: Path, names: list[str], codes: list[np.ndarray]) -> None:
    letters = np.frombuffer(b"ACGT", dtype=np.uint8)
    with open(path, "w") as handle:
        for name, x in zip(names, codes, strict=True):
            text = letters[x].tobytes().decode()
            handle.write(f">{name}\n")
            handle.writelines(text[i : i + 60] + "\n" for i in range(0, len(text), 60))


def plant(rng, codes, chrom, centre, pwm) -> None:
    m = pwm.shape[0]
    start = centre - m // 2 + rng.integers(-10, 11)
    row = sample_pwm(rng, pwm, 1)[0]
    codes[chrom][start : start + m] = 3 - row[::-1] if rng.random() < 0.5 else row


def write_compendium(folder: Path, seed: int, n_peaks: int, chromosomes: int):
    """The genome, each row's peaks, the model files, the sheet; the rows."""
    from poimkit import GkmSVC
    from poimkit.svm.lsgkm import write_lsgkm

    rng = np.random.default_rng(seed)
    rows = experiments()
    pwms = {n: m.pwm for n, m in planted_pwms().items()}
    slots_needed = n_peaks * (len(rows) + 3) * 2  # room for negatives too
    length = slots_needed * SLOT // chromosomes
    codes = write_genome(rng, chromosomes, length)
    slots = rng.permutation(chromosomes * (length // SLOT - 2))
    taken = 0
    names = [f"chr{c + 1}" for c in range(chromosomes)]
    for row in rows:
        picked = slots[taken : taken + n_peaks]
        taken += n_peaks
        chrom = picked % chromosomes
        centre = (picked // chromosomes + 1) * SLOT + SLOT // 2
        lines = []
        for i, (c, s) in enumerate(zip(chrom, centre, strict=True)):
            if row["factor"] and rng.random() < row["rate"]:
                plant(rng, codes, c, s, pwms[row["factor"]])
            if row.get("co") and rng.random() < 0.4:
                plant(rng, codes, c, s + rng.choice([-30, 30]), pwms[row["co"]])
            lines.append(
                f"{names[c]}\t{s - 150}\t{s + 150}\tpeak{i}\t500\t.\t10\t5\t3\t150\n"
            )
        (folder / f"{row['name']}.narrowPeak").write_text("".join(lines))
        if row.get("model"):  # trained on other peaks of its factor
            X, y = [], []
            for _ in range(n_peaks):
                c = rng.integers(chromosomes)
                s = int(rng.integers(SLOT, length - SLOT))
                x = codes[c][s - 50 : s + 50].copy()
                X.append(x)
                y.append(0)
                positive = x.copy()
                sub = [positive]
                if rng.random() < row["rate"]:
                    plant(rng, sub, 0, 50, pwms[row["factor"]])
                X.append(sub[0])
                y.append(1)
            model = GkmSVC(C=1.0).fit(X, np.array(y))
            write_lsgkm(model, folder / f"{row['name']}.model.txt")
    write_genome_fasta(folder / "genome.fa", names, codes)
    lines = ["name\tbed\tgenome\tmodel"]
    for row in rows:
        bed = f"{row['name']}.narrowPeak"
        if row.get("model"):
            bed = bed if row["records"] else ""
            genome = "genome.fa" if row["records"] else ""
            lines.append(f"{row['name']}\t{bed}\t{genome}\t{row['name']}.model.txt")
        else:
            lines.append(f"{row['name']}\t{bed}\tgenome.fa\t")
    (folder / "sheet.tsv").write_text("\n".join(lines) + "\n")
    return rows


def write_zoo(folder: Path, seed: int, n: int) -> dict:
    """``n`` LS-GKM files, factor by factor in turn; name -> factor."""
    from poimkit import GkmSVC
    from poimkit.datasets import PlantedMotif, make_motif_data
    from poimkit.svm.lsgkm import write_lsgkm

    pwms = {n: m.pwm for n, m in planted_pwms().items()}
    factors = list(FACTORS)
    zoo, lines = {}, ["name\tmodel"]
    for i in range(n):
        factor = factors[i % len(factors)]
        motif = PlantedMotif(
            pwms[factor],
            position=50,
            spread=10,
            mutation="none",
            reverse_complement=0.5,
            in_positives=0.6,
        )
        X, y = make_motif_data(300, 300, 100, [motif], random_state=seed + i)
        name = f"zoo{i:02d}_{factor}"
        write_lsgkm(GkmSVC(C=1.0).fit(X, y), folder / f"{name}.model.txt")
        lines.append(f"{name}\t{name}.model.txt")
        zoo[name] = factor
    (folder / "zoo.tsv").write_text("\n".join(lines) + "\n")
    return zoo


def batch(sheet: Path, out: Path, options: list[str]) -> float:
    start = time.perf_counter()
    process = subprocess.run(
        [sys.executable, "-m", "poimkit", "batch", sheet, "-o", out, "--quiet"]
        + ["--options", " ".join(options)],
        capture_output=True,
        text=True,
        check=False,
    )
    if process.returncode not in (0, 3):
        raise SystemExit(f"poimkit batch failed: {process.stderr}")
    return time.perf_counter() - start


def best_planted(motif, planted: dict) -> tuple[str, float]:
    """The planted factor most like ``motif`` and the similarity (the atlas's)."""
    from poimkit.batch.families import MIN_OVERLAP
    from poimkit.motifs.compare import match_motifs

    best, score = "", -1.0
    for name, pwm in planted.items():
        query, target = (motif, pwm) if motif.length <= pwm.length else (pwm, motif)
        [m] = match_motifs(query, [target], top=1, min_overlap=MIN_OVERLAP)
        if m.score > score:
            best, score = name, m.score
    return best, score


def row_motifs(out: Path, name: str) -> list:
    """The run's motifs (MEME) with their summary rows."""
    from poimkit.motifs.formats import read_motifs

    folder = out / "runs" / name
    if not (folder / "summary.json").is_file():
        return []
    rows = {
        r["name"]: r
        for r in json.loads((folder / "summary.json").read_text())["motifs"]
    }
    return [(m, rows[m.name]) for m in read_motifs(folder / "motifs.meme")]


def judge(out: Path, rows: list[dict], planted: dict) -> dict:
    from sklearn.metrics import adjusted_rand_score

    with open(out / "motif_families.tsv") as handle:
        members = {}
        for family in csv.DictReader(handle, delimiter="\t"):
            for member in family["members"].split(","):
                members[member] = family["family"]
    per_row, found_motifs = {}, []  # (row's factor, planted truth, family)
    for row in rows:
        found = False
        expected = {TRUTH[row["factor"]]} if row["factor"] else set()
        if row.get("co"):
            expected.add(TRUTH[row["co"]])
        calls = []
        for motif, summary in row_motifs(out, row["name"]):
            if summary.get("class") == "negative":
                continue
            factor, score = best_planted(motif, planted)
            calls.append(f"{summary['iupac']}:{factor}:{score:.2f}")
            if score < THRESHOLD:
                continue
            found = found or TRUTH[factor] == TRUTH.get(row["factor"])
            family = members.get(f"{row['name']}:{summary['iupac']}")
            if family is not None and TRUTH[factor] in expected:
                own = row["factor"] if TRUTH[factor] == TRUTH[row["factor"]] else None
                found_motifs.append((own, TRUTH[factor], family))
        per_row[row["name"]] = {
            "factor": row["factor"],
            "found": found if row["factor"] else None,
            "motifs": calls,
        }
    with_factor = [r for r in per_row.values() if r["factor"]]
    noise = [n for n, r in per_row.items() if r["factor"] is None]
    truth = [t for _, t, _ in found_motifs]
    predicted = [f for _, _, f in found_motifs]
    split = {
        t: sorted({f for _, tt, f in found_motifs if tt == t})
        for t in sorted(set(truth))
    }

    def families_of(factor: str) -> list:
        return sorted({f for own, _, f in found_motifs if own == factor})

    return {
        "found_share": round(
            sum(r["found"] for r in with_factor) / len(with_factor), 3
        ),
        "not_found": sorted(
            n for n, r in per_row.items() if r["factor"] and not r["found"]
        ),
        "noise_rows_with_motifs": [n for n in noise if per_row[n]["motifs"]],
        "ari": round(adjusted_rand_score(truth, predicted), 3),
        "found_motifs": len(truth),
        "split_factors": {t: f for t, f in split.items() if len(f) > 1},
        "variants": {
            factor: families_of(factor) for factor in ("JUND", "ATF3", "LHX9", "VSX2")
        },
        "bzip_apart": not set(families_of("JUND")) & set(families_of("ATF3")),
        "homeodomain_together": families_of("LHX9") == families_of("VSX2")
        and len(families_of("LHX9")) == 1,
        "rows": per_row,
    }


def judge_zoo(out: Path, zoo: dict, planted: dict) -> dict:
    """Time per model; the top motif against the planted matrices and JASPAR."""
    with open(out / "experiments.tsv") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    seconds = [float(r["seconds"]) for r in rows if r["seconds"]]
    hits, first, among, named = 0, 0, 0, {}
    for name, factor in zoo.items():
        found = row_motifs(out, name)
        if not found:
            continue
        best, score = best_planted(found[0][0], planted)
        hits += score >= THRESHOLD and TRUTH[best] == TRUTH[factor]
        matches = [m["target"] for m in found[0][1].get("matches") or []]
        ids = [m.split(" ", 1)[0] for m in matches]
        first += ids[:1] == [FACTORS[factor]]
        among += FACTORS[factor] in ids
        named.setdefault(factor, []).append(
            matches[0].split(" ", 1)[-1] if matches else "-"
        )
    return {
        "models": len(zoo),
        "failed": sum(r["status"] == "failed" for r in rows),
        "seconds_per_model_median": round(float(np.median(seconds)), 2),
        "seconds_per_model_max": round(max(seconds), 2),
        "top_motif_is_planted_factor": round(hits / len(zoo), 3),
        "best_jaspar_match_is_planted_matrix": round(first / len(zoo), 3),
        "planted_matrix_among_3_best_matches": round(among / len(zoo), 3),
        "best_jaspar_match_by_factor": named,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=5701)
    parser.add_argument("--peaks", type=int, default=300)
    parser.add_argument("--chromosomes", type=int, default=4)
    parser.add_argument("--zoo", type=int, default=50)
    parser.add_argument("--folder", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="bench_compendium_"))
    folder.mkdir(parents=True, exist_ok=True)
    planted = planted_pwms()
    start = time.perf_counter()
    rows = write_compendium(folder, args.seed, args.peaks, args.chromosomes)
    zoo = write_zoo(folder, args.seed + 1000, args.zoo)
    log(
        f"compendium of {len(rows)} rows and {len(zoo)} zoo models written in "
        f"{time.perf_counter() - start:.0f} s to {folder}"
    )
    seconds = batch(
        folder / "sheet.tsv", folder / "atlas", [*FLAGS, "--width", str(WIDTH)]
    )
    log(f"compendium batch: {seconds:.0f} s")
    result = judge(folder / "atlas", rows, planted)
    zoo_seconds = batch(folder / "zoo.tsv", folder / "zoo", ["--known", "jaspar"])
    log(f"model zoo batch: {zoo_seconds:.0f} s")
    summary = {
        "machine": {"cores": os.cpu_count(), "python": sys.version.split()[0]},
        "seed": args.seed,
        "experiments": len(rows),
        "peaks_per_experiment": args.peaks,
        "flags": [*FLAGS, "--width", str(WIDTH)],
        "batch_seconds": round(seconds, 1),
        **result,
        "zoo": {
            **judge_zoo(folder / "zoo", zoo, planted),
            "batch_seconds": round(zoo_seconds, 1),
        },
    }
    print(json.dumps(summary, indent=1))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
