"""How learnable the planted grammar of ``bench_deep_grammar.py`` is: reference AUROCs.

Logistic regressions (scikit-learn, default C) on the same training records,
scored on the same held-out records, with hand-made features that know the
grammar:

* ``gc``: GC fraction alone;
* ``scan``: GC fraction, and for every motif whether a site with at most one
  mismatch (either strand) is present, and whether A and B form the
  cooperative pair (A then B on the same strand, 10-20 letters between them);
* ``scan, no pair``: the same without the pair feature (what motifs that act
  alone give);
* ``latent``: GC fraction and the generator's own record of what was planted
  (pair, C, D, E): the best any model can do from the planting, up to the
  degenerate letters.

With ``--control``, the ``scan`` model (a model that knows the grammar, so
the answer is known) goes through the measures the benchmark applies to the
CNN: `motif_interactions` for A-B, D-E, A-C (same settings), and a sampled
POIM (length 24, order <= 6, 8 samples) with `extract_motifs` -- a positive
control of the measures themselves.

    python benchmarks/deep_grammar_reference.py [--seed 54] [--control]
"""

from __future__ import annotations

import argparse

import numpy as np
from deep_grammar_design import MOTIFS, PAIR_GAP, gc_fraction, make_grammar, rc, split
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score


def site_starts(X: np.ndarray, motif: str) -> np.ndarray:
    """(n, windows, 2): a site with at most one mismatch starts here, on +/-."""
    windows = np.lib.stride_tricks.sliding_window_view(X, len(motif), axis=1)
    out = []
    for word in (motif, rc(motif)):
        w = np.array(["ACGT".index(c) for c in word], dtype=X.dtype)
        out.append((windows != w).sum(axis=2) <= 1)
    return np.stack(out, axis=2)


def features(X: np.ndarray) -> np.ndarray:
    """Per record: each motif present (<= 1 mismatch), and the cooperative pair."""
    found = {k: site_starts(X, m) for k, m in MOTIFS.items()}
    width = len(MOTIFS["A"])
    a, b = found["A"], found["B"]
    pair = np.zeros(len(X), dtype=bool)
    n_windows = a.shape[1]
    for gap in range(PAIR_GAP[0], PAIR_GAP[1] + 1):
        shift = width + gap  # B's start after A's start (+); A's after B's (-)
        if shift >= n_windows:
            break
        pair |= (a[:, :-shift, 0] & b[:, shift:, 0]).any(axis=1)
        pair |= (b[:, :-shift, 1] & a[:, shift:, 1]).any(axis=1)
    present = [found[k].any(axis=(1, 2)) for k in MOTIFS]
    return np.column_stack([*present, pair]).astype(float)


class ScanModel:
    """The ``scan`` logistic regression as a poimkit model of any length."""

    decomposition = "score_only"  # poimkit.additive: it only scores
    position_free = True
    length_ = 200

    def __init__(self, logistic) -> None:
        self.logistic = logistic

    def describe(self) -> str:
        return "a logistic regression on grammar-aware scan features"

    def decision_function(self, X) -> np.ndarray:
        X = np.asarray(X, dtype=np.uint8)
        F = np.hstack([gc_fraction(X)[:, None], features(X)])
        return self.logistic.decision_function(F)


def control(model: ScanModel, X_train, y_train, seed: int) -> None:
    import time

    from run_info import close

    from poimkit import extract_motifs
    from poimkit.background import MarkovBackground
    from poimkit.importance.interactions import motif_interactions
    from poimkit.poim.score_only import sampled_score_only_poim

    print(
        "control: weights",
        dict(
            zip(
                ["gc", *MOTIFS, "pair"],
                np.round(model.logistic.coef_[0], 2).tolist(),
                strict=True,
            )
        ),
    )
    for a, b in ("AB", "DE", "AC"):
        start = time.perf_counter()
        found = motif_interactions(
            model,
            MOTIFS[a],
            MOTIFS[b],
            length=200,
            distances=range(31),
            n_samples=128,
            random_state=seed,
        )
        z = np.abs(found.z())
        pk = found.peak()
        o = found.orientations.index("++")
        inside = [
            d
            for d in found.distances
            if abs(found.interaction[o, d]) > 0.5 * abs(pk["interaction"])
        ]
        print(
            f"control {a}-{b}: peak {pk['orientation']} d={pk['distance']} "
            f"I={pk['interaction']:.3f} (se {pk['stderr']:.3f}), max|z| "
            f"{z.max():.1f}, ++ distances with |I| > half the peak: "
            f"{min(inside, default=None)}-{max(inside, default=None)}, "
            f"{time.perf_counter() - start:.0f} s"
        )
    start = time.perf_counter()
    poim = sampled_score_only_poim(
        model, 6, MarkovBackground.uniform(24), n_samples=8, random_state=seed
    )
    motifs = extract_motifs(
        poim, max_motifs=5, sequences=X_train, labels=y_train, random_state=seed
    )
    print(f"control POIM + motifs: {time.perf_counter() - start:.0f} s")
    for m in motifs:
        best = min((close(m.consensus, t), k) for k, t in MOTIFS.items())
        print(
            f"  {m.name} {m.consensus} label {m.label} frac_pos "
            f"{m.frac_positive:.2f} frac_neg {m.frac_negative:.2f} q {m.q_value:.1e}"
            f" closest {best[1]} ({best[0]} mismatches)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=54)
    parser.add_argument("--n-train", type=int, default=8000)
    parser.add_argument("--n-test", type=int, default=2000)
    parser.add_argument("--control", action="store_true")
    args = parser.parse_args()
    n = args.n_train + args.n_test
    X, y, arrangement, singles = make_grammar(n // 2, n // 2, args.seed)
    train, test = split(X, y, args.n_test, args.seed)
    gc = gc_fraction(X)[:, None]
    scan = features(X)
    latent = np.array(
        [
            [float(a == "pair")] + [float(k in s) for k in ("C", "D", "E")]
            for a, s in zip(arrangement, singles, strict=True)
        ]
    )
    sets = {
        "gc": gc,
        "scan, no pair": np.hstack([gc, scan[:, :5]]),
        "scan": np.hstack([gc, scan]),
        "latent": np.hstack([gc, latent]),
    }
    print("| features | test AUROC |")
    print("|---|---|")
    models = {}
    for name, F in sets.items():
        model = models[name] = LogisticRegression(max_iter=1000).fit(F[train], y[train])
        auc = roc_auc_score(y[test], model.decision_function(F[test]))
        print(f"| {name} | {auc:.3f} |")
    for label in (1, 0):
        rate = scan[y == label].mean(axis=0)
        names = [*MOTIFS, "pair"]
        print(label, {k: round(float(r), 3) for k, r in zip(names, rate, strict=True)})
    if args.control:
        control(ScanModel(models["scan"]), X[train], y[train], args.seed)


if __name__ == "__main__":
    main()
