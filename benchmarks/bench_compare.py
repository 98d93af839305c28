"""Benchmark: comparing found motifs with JASPAR CORE (offline, pyjaspar).

Times `known_motifs("jaspar")` (every CORE motif of pyjaspar's newest release)
and `match_motifs` for random 10-column query PWMs against all of them. The
baseline in the same run is Biopython's `dist_pearson` (best-offset Pearson
correlation, one strand, pure Python) for the same queries against the same
motifs. Biopython defines it on score matrices; here the matrices hold the
probabilities, which is what its docstring describes and what poimkit
correlates.

    python benchmarks/bench_compare.py
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from Bio.motifs.matrix import PositionSpecificScoringMatrix

from poimkit.motifs import Motif, known_motifs, match_motifs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=5)
    parser.add_argument("--length", type=int, default=10)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    queries = [
        Motif(rng.dirichlet(np.full(4, 0.3), size=args.length), 1.0, 0.3, f"q{i}")
        for i in range(args.queries)
    ]

    start = time.perf_counter()
    known = known_motifs("jaspar")
    print(f"known_motifs('jaspar'): {len(known)} motifs in {_since(start):.2f} s")

    start = time.perf_counter()
    for query in queries:
        match_motifs(query, known)
    ours = _since(start) / len(queries)
    print(f"match_motifs, {args.length}-long query, both strands: {ours:.3f} s")

    known_bio = [_biopython_matrix(m) for m in known]
    start = time.perf_counter()
    for query in queries:
        query_bio = _biopython_matrix(query)
        for target in known_bio:
            query_bio.dist_pearson(target)
    baseline = _since(start) / len(queries)
    print(f"Biopython dist_pearson, one strand: {baseline:.3f} s per query")
    print(f"ratio (baseline / ours, ours on two strands): {baseline / ours:.1f}x")
    return 0


def _biopython_matrix(motif: Motif) -> PositionSpecificScoringMatrix:
    """Biopython's matrix holding the motif's probabilities."""
    columns = {a: motif.pwm[:, i].tolist() for i, a in enumerate("ACGT")}
    return PositionSpecificScoringMatrix("ACGT", columns)


def _since(start: float) -> float:
    return time.perf_counter() - start


if __name__ == "__main__":
    raise SystemExit(main())
