"""Reproduce Figure 1 of Zien et al. (2009): FIRM of a quadratic SVM, Boolean data.

The formula ``x1 or (not x1 and not x2)`` (= ``x1 or not x2``) is learned by an
SVM with a polynomial kernel of degree 2 on all 8 rows of the truth table of
``(x1, x2, x3)``. FIRM is computed exactly under the uniform distribution on
the truth table, for the 6 literals and the 12 conjunctions of two literals
of different variables, once from the SVM scores (SVM-FIRM) and once from the
labels (y-FIRM), next to the SVM's own weights of the monomials.

Setup that reproduces the paper (`KERNELS["homogeneous"]`): inputs coded 0/1, labels
-1/+1, homogeneous kernel ``k(x, x') = (x^T x')^2`` (sklearn ``kernel="poly",
degree=2, gamma=1, coef0=0``), hard margin (``C = 1e10``). Its explicit features
on 0/1 inputs are exactly the monomials ``x1, x2, x3, x1x2, x1x3, x2x3`` of the
figure caption, the score is 5/3 on the two rows with ``(x1, x2) = (1, 0)``
(the paper prints 1.6̄ "for (x1, x2) = (0, 1)"; at (0, 1) every hard-margin
SVM has score -1, see the JSON), and the weights rank ``x2`` first and
``x1x2`` second, as the text says. The inhomogeneous kernel
``(x^T x' + 1)^2`` is computed as well (`KERNELS["inhomogeneous"]`): it gives
2.2 instead of 5/3 and ranks ``x1`` above ``x1x2``.

Every sentence of Section 3.1 is checked in the JSON's ``claims``. Two do
not hold in this set-up: the SVM does not underfit (it classifies all 8 rows
correctly, and the labels are themselves the quadratic ``1 - 2 x2 + 2 x1 x2``),
and SVM-FIRM ranks ``x1 and not x2`` first only among the conjunctions
(0.577, below the literals at 0.667 and ``not x1 and x2`` at -0.962). The
paper states neither C nor the kernel's offset, so ``setup_search`` fits the
SVM over a grid of both (and with the kernel normalised as Shogun, the
authors' toolbox, does by default): no set-up makes the SVM-w sentence, the
SVM-FIRM sentence and the underfitting/1.6̄ sentences hold together.

Run: ``python validation/firm_fig1_boolean.py [-o OUT] [--quick]``.
Writes ``firm_fig1_boolean.{png,pdf,json}`` and
``firm_fig1_boolean_inhomogeneous.{png,pdf}`` (not with ``--quick``, which
also searches a coarser grid of set-ups). The numbers are deterministic (the
truth table is fixed and the hard-margin SVM unique); ``--seed`` changes
nothing.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from _common import claim  # noqa: E402
from _firm_fig1_base import (  # noqa: E402
    HARD_MARGIN_C,
    KERNELS,
    KERNELS_BY_COEF0,
    N_VARIABLES,
    PAPER_SCORE,
    STEM,
    clean_table,
    firm_tables,
    labels,
    monomial_weights,
    ranking,
    train_svm,
    truth_table,
)
from _firm_fig1_search import (  # noqa: E402
    SENTENCES,
    disjunction_firm,
    extremes,
    label_polynomial,
    log_c_span,
    sentences_in,
    setup_search,
    seven_true,
)

from poimkit.importance.firm import firm_binary  # noqa: E402


def analyse(coef0: float) -> dict:
    """Train the SVM and compute its weights, SVM-FIRM and y-FIRM."""
    X = truth_table()
    y = labels(X)
    model = train_svm(X, y, coef0)
    scores = model.decision_function(X)
    weights = monomial_weights(scores)
    svm_firm = firm_binary(model, X)
    y_firm = firm_binary(y, X)
    rows = clean_table(
        {"".join(str(int(v)) for v in row): s for row, s in zip(X, scores, strict=True)}
    )
    s01 = float(scores[(X[:, 0] == 0) & (X[:, 1] == 1)].mean())
    s10 = float(scores[(X[:, 0] == 1) & (X[:, 1] == 0)].mean())
    w_single = clean_table(
        {f"x{j + 1}": weights["single"][j] for j in range(N_VARIABLES)}
    )
    w_pairs = clean_table(
        {
            f"x{j + 1}x{k + 1}": weights["pairs"][j, k]
            for j, k in itertools.combinations(range(N_VARIABLES), 2)
        }
    )
    svm_single, svm_pairs = map(clean_table, firm_tables(svm_firm))
    y_single, y_pairs = map(clean_table, firm_tables(y_firm))
    return {
        "model": model,
        "arrays": {"weights": weights, "svm_firm": svm_firm, "y_firm": y_firm},
        "json": {
            "kernel": KERNELS_BY_COEF0[coef0],
            "sklearn": {
                "kernel": "poly",
                "degree": 2,
                "gamma": 1.0,
                "coef0": coef0,
                "C": HARD_MARGIN_C,
            },
            "scores_by_row_x1x2x3": rows,
            "training_accuracy": float(np.mean(np.sign(scores) == y)),
            "n_support_vectors": int(model.support_.size),
            "s_at_x1_0_x2_1": s01,
            "s_at_x1_1_x2_0": s10,
            "svm_w": {
                "intercept": round(float(weights["intercept"]), 10),
                "single": w_single,
                "pairs": w_pairs,
                "triple_x1x2x3": round(float(weights["triple"]), 10) + 0.0,
                "ranking": ranking({**w_single, **w_pairs}),
            },
            "svm_firm": {
                "single": svm_single,
                "pairs": svm_pairs,
                "ranking": ranking({**svm_single, **svm_pairs}),
            },
            "y_firm": {
                "single": y_single,
                "pairs": y_pairs,
                "ranking": ranking({**y_single, **y_pairs}),
            },
        },
    }


def compute(seed: int = 0, quick: bool = False) -> dict:
    """All numbers of the reproduction (the fitted models under ``"_runs"``).

    ``quick`` searches a coarser grid of set-ups (`setup_search`); the
    paper's set-up itself is deterministic and ``seed`` is not used.
    """
    del seed  # deterministic
    runs = {name: analyse(spec["coef0"]) for name, spec in KERNELS.items()}
    paper = runs["homogeneous"]["json"]
    svm_all = {**paper["svm_firm"]["single"], **paper["svm_firm"]["pairs"]}
    svm_pairs = paper["svm_firm"]["pairs"]
    y_pairs = paper["y_firm"]["pairs"]
    inhom = runs["inhomogeneous"]["json"]
    s01, s10 = paper["s_at_x1_0_x2_1"], paper["s_at_x1_1_x2_0"]
    data = {
        "figure": "Zien et al. (2009), Figure 1 / Section 3.1",
        "formula": "x1 or (not x1 and not x2)",
        "inputs": "0/1, all 8 rows of the truth table of (x1, x2, x3)",
        "labels": "+1 (formula true) / -1",
        "distribution": "uniform on the 8 rows (exact FIRM, no sampling)",
        "sign": "FIRM is signed: (q(feature true) - q(false)) sqrt(p1 p0), eq. 10",
        "paper_claim": {
            "text": "s(x) = 1.6̄ for (x1, x2) = (0, 1)",
            "value": PAPER_SCORE,
        },
        "reproduced_s_at_x1_0_x2_1": {
            "value": s01,
            "abs_diff": abs(s01 - PAPER_SCORE),
            "matches_paper_within_1e-3": bool(abs(s01 - PAPER_SCORE) < 1e-3),
        },
        "reproduced_s_at_x1_1_x2_0": {
            "value": s10,
            "abs_diff": abs(s10 - PAPER_SCORE),
            "matches_paper_within_1e-3": bool(abs(s10 - PAPER_SCORE) < 1e-3),
        },
        "explanation": (
            "(x1, x2) = (0, 1) is the only negative input (the formula is false "
            "there). The data are linearly separable, so every hard-margin SVM "
            "has y s(x) >= 1 on all rows and s = -1 exactly at (0, 1), which "
            "are support vectors; no kernel or C gives +1.667 there. The value "
            "5/3 occurs at (x1, x2) = (1, 0) with the homogeneous kernel "
            "(x^T x')^2 on 0/1 inputs, the setup whose explicit features are the "
            "monomials named in the caption of Figure 1 and whose weights rank "
            "x2 first and x1x2 second, as the text says. The paper evidently "
            "swapped the coordinates. The SVM is not underfitting in the sense "
            "of misclassifying: all 8 rows are classified correctly; the score "
            "5/3 differs from the label 1. With the inhomogeneous kernel "
            f"(x^T x' + 1)^2 the score at (1, 0) is {inhom['s_at_x1_1_x2_0']:.4f} "
            "and the weight of x1 exceeds that of x1x2."
        ),
        "paper_text_checks": {
            "svm_w_biggest_is_x2": paper["svm_w"]["ranking"][0] == "x2",
            "svm_w_second_is_x1x2": paper["svm_w"]["ranking"][1] == "x1x2",
            "y_firm_seven_true_conjunctions_equal_and_top": seven_true(y_pairs),
            "y_firm_most_negative_conjunctions": extremes(y_pairs, min),
            "svm_firm_most_positive_features": extremes(svm_all, max),
            "svm_firm_most_positive_conjunctions": extremes(svm_pairs, max),
            "svm_firm_most_negative_features": extremes(svm_all, min),
        },
        "homogeneous": paper,
        "inhomogeneous": inhom,
        "label_polynomial": label_polynomial(),
        "svm_firm_disjunctions": disjunction_firm(
            runs["homogeneous"]["model"].decision_function(truth_table())
        ),
        "sentences_in_our_setup": sentences_in(
            runs["homogeneous"]["model"].decision_function(truth_table()),
            labels(truth_table()),
        ),
        "setup_search": setup_search(quick),
        "_runs": runs,
    }
    data["claims"] = claims(data)
    return data


def claims(data: dict) -> list[dict]:
    """Every sentence of Section 3.1 (and the caption of Figure 1), checked."""
    home = data["homogeneous"]
    w = {**home["svm_w"]["single"], **home["svm_w"]["pairs"]}
    w_order = home["svm_w"]["ranking"]
    svm = {**home["svm_firm"]["single"], **home["svm_firm"]["pairs"]}
    svm_pairs = home["svm_firm"]["pairs"]
    y_pairs = home["y_firm"]["pairs"]
    svm_abs = home["svm_firm"]["ranking"]
    svm_signed = sorted(svm, key=lambda k: (-svm[k], k))
    search = data["setup_search"]
    found = data["sentences_in_our_setup"]
    spans = {
        name: [
            f"coef0 {k['coef0']:g}{' normalised' if k['normalized'] else ''}: "
            + log_c_span(k["log10_C_where_holds"][name])
            for k in search["kernels"]
            if k["log10_C_where_holds"][name]
        ]
        for name in SENTENCES
    }
    poly = data["label_polynomial"]
    s01 = data["reproduced_s_at_x1_0_x2_1"]["value"]
    s10 = data["reproduced_s_at_x1_1_x2_0"]["value"]
    acc = home["training_accuracy"]
    out = []

    out.append(
        claim(
            "Sec. 3.1: a degree-2 polynomial-kernel SVM is trained on all 8 rows "
            "of the truth table of (x1, x2, x3) in {0,1}^3 for x1 or (not x1 and "
            "not x2)",
            "degree 2; C, kernel offset and normalisation not stated",
            f"0/1 inputs, -1/+1 labels, (x^T x')^2, C = {HARD_MARGIN_C:.0e}; "
            f"{search['grid']['n_setups']} other set-ups searched",
            "holds",
            "fixed by the paper up to C and the kernel's offset; ours is the "
            "set-up in which the SVM-w sentence holds and 5/3 occurs (at swapped "
            "coordinates); setup_search tallies the sentences in the others",
        )
    )
    out.append(
        claim(
            "Fig. 1 caption: SVM-w assigns a weight to the monomials x1, x2, x3 "
            "and x1x2, x1x3, x2x3",
            "6 monomial weights",
            f"6 weights {w}",
            "holds",
            "on 0/1 inputs the features of (x^T x')^2 are exactly x_j (= x_j^2) "
            "and sqrt(2) x_j x_k; the inhomogeneous kernel adds a constant",
        )
    )
    disj = data["svm_firm_disjunctions"]
    out.append(
        claim(
            "Sec. 3.1: the raw SVM w weights only feature-space dimensions; "
            "pairwise disjunctions get zero implicitly",
            "w: zero for disjunctions",
            f"w has no disjunction coordinate; SVM-FIRM of disjunctions {disj}",
            "holds",
            "FIRM of an indicator (eq. 10) exists for any feature, w only for "
            "the 6 monomials",
        )
    )
    ok = found["svm_w_x2_then_x1x2"]
    out.append(
        claim(
            "Sec. 3.1: the SVM assigns the biggest weight to x2, followed by x1 & x2",
            "x2, then x1x2",
            f"ranking by |w| {w_order[:3]}: x2 {w['x2']:+.3f}, x1x2 "
            f"{w['x1x2']:+.3f}, x1 {w['x1']:+.3f}",
            "holds" if ok else "differs",
            None if ok else f"SVM-w ranks {w_order[:2]}",
        )
    )
    ok = found["svm_firm_top_abs_is_x1_and_not_x2"]
    top_pair = max(svm_pairs, key=svm_pairs.get)
    out.append(
        claim(
            "Sec. 3.1: for SVM-FIRM the most important features are x1 & not "
            "x2, followed by not x1/2",
            "x1 & not x2 first, then not x1, not x2",
            f"by |FIRM| {svm_abs[:6]}: not x1 & x2 {svm['not x1 & x2']:+.3f}, "
            f"literals +-{abs(svm['x1']):.3f}, x1 & not x2 "
            f"{svm['x1 & not x2']:+.3f}; signed order {svm_signed[:3]}; largest "
            f"conjunction {top_pair} {svm_pairs[top_pair]:+.3f}",
            "holds" if ok else "differs",
            None
            if ok
            else f"x1 & not x2 is first only among the conjunctions; the literals "
            f"x1, not x2 ({svm['x1']:+.3f}) and, by |FIRM|, not x1 & x2 "
            f"({svm['not x1 & x2']:+.3f}) rank above it. In the set-up grid x1 & "
            "not x2 is first by |FIRM| in "
            + ("; ".join(spans["svm_firm_top_abs_is_x1_and_not_x2"][:3]) or "no set-up")
            + " and first by signed FIRM with "
            + "; ".join(spans["svm_firm_top_signed_is_x1_and_not_x2"][:3])
            + ", ..."
            + (
                ", set-ups in which the SVM-w sentence fails"
                if not search["svm_w_and_svm_firm_together"]
                else ""
            ),
        )
    )
    out.append(
        claim(
            "Sec. 3.1: SVM-FIRM more closely resembles the truth (than SVM-w)",
            "judgement",
            "SVM-FIRM and y-FIRM agree in sign on every feature; Pearson r "
            f"{_corr(svm, {**home['y_firm']['single'], **y_pairs}):.3f}",
            "not attempted",
            "the paper gives no measure of resemblance, and SVM-w has no "
            "weights for negated literals to compare",
        )
    )
    out.append(
        claim(
            "Sec. 3.1: due to the low degree of the kernel the SVM cannot learn "
            "the function by heart",
            "degree 2 too low",
            f"labels = {poly['polynomial'].split(' on')[0][4:]} exactly (least "
            f"squares on the kernel's monomials, residual "
            f"{poly['max_abs_residual']:.0e}); SVM scores = labels on 6 rows, "
            f"{s10:.3f} on (1, 0, *)",
            "differs",
            "the formula is itself a quadratic polynomial in the kernel's feature "
            "space; the hard-margin SVM's score exceeds the label 1 at (1, 0, *) "
            "by the margin geometry, not for lack of capacity",
        )
    )
    under = spans["underfitting"]
    out.append(
        claim(
            "Sec. 3.1: in other words, we have an underfitting situation",
            "underfitting",
            f"training accuracy {acc:.3f} ({int(round(acc * 8))}/8 rows), "
            f"{home['n_support_vectors']} support vectors",
            "holds" if acc < 1 else "differs",
            None
            if acc < 1
            else "all 8 rows are classified correctly; in the set-up grid "
            "training errors appear only with a soft margin ("
            + "; ".join(under[:2])
            + ", ...), always at the (0, 1) rows, with s < 1 there",
        )
    )
    ok = found["s_5/3_at_x1_0_x2_1"]
    out.append(
        claim(
            "Sec. 3.1: in fact, s(x) = 1.6 (recurring) for (x1, x2) = (0, 1)",
            PAPER_SCORE,
            {"s at (0, 1)": round(s01, 6), "s at (1, 0)": round(s10, 6)},
            "holds" if ok else "differs",
            None
            if ok
            else "(0, 1) is the only negative input: every hard-margin SVM has "
            "s <= -1 there (ours -1); 5/3 is the score at (1, 0), the coordinates are "
            "evidently swapped. No set-up of the grid gives 5/3 at (0, 1) "
            f"(largest s there {search['max_s_at_x1_0_x2_1']:.3f}, with a soft "
            "margin)",
        )
    )
    diff = {
        k: round(svm[k] - v, 3)
        for k, v in {**home["y_firm"]["single"], **y_pairs}.items()
    }
    biggest = max(diff, key=lambda k: abs(diff[k]))
    ok = abs(diff[biggest]) > 1e-6
    out.append(
        claim(
            "Sec. 3.1: y-FIRM and SVM-FIRM differ: FIRM explains the learner "
            "rather than the problem",
            "they differ",
            f"largest difference {biggest}: SVM {svm[biggest]:+.3f} vs y "
            f"{svm[biggest] - diff[biggest]:+.3f}",
            "holds" if ok else "differs",
            None if ok else "SVM-FIRM equals y-FIRM",
        )
    )
    ok = data["paper_text_checks"]["y_firm_seven_true_conjunctions_equal_and_top"]
    out.append(
        claim(
            "Sec. 3.1: y-FIRM finds all seven 2-tuples that lead to a true output",
            "7 conjunctions marked",
            f"the 7 conjunctions implying the formula all get "
            f"{y_pairs['x1 & x3']:+.4f} (= sqrt(3)/6), the largest conjunction "
            "value; the other 5 are negative",
            "holds" if ok else "differs",
            None if ok else "the seven are not equal and top",
        )
    )
    most_neg = data["paper_text_checks"]["y_firm_most_negative_conjunctions"]
    ok = most_neg == ["not x1 & x2"]
    out.append(
        claim(
            "Sec. 3.1: y-FIRM: only not x1 & x2 leads to a false value (stronger "
            "score)",
            "not x1 & x2 strongest, negative",
            f"y-FIRM not x1 & x2 {y_pairs['not x1 & x2']:+.4f} (= -sqrt(3)/2), "
            "the largest |value|",
            "holds" if ok else "differs",
            None if ok else f"most negative: {most_neg}",
        )
    )
    mixed = ["not x1 & x3", "not x1 & not x3", "x2 & x3", "x2 & not x3"]
    vals = [y_pairs[k] for k in mixed]
    ok = all(v < 0 for v in vals) and max(map(abs, vals)) < abs(y_pairs["not x1 & x2"])
    out.append(
        claim(
            "Sec. 3.1: y-FIRM: not x1 and x2 combined with x3 lead to a slightly "
            "negative value",
            "slightly negative",
            f"y-FIRM of {mixed}: {[round(v, 4) for v in vals]} (a third of "
            "not x1 & x2)",
            "holds" if ok else "differs",
            None if ok else "not all slightly negative",
        )
    )
    out.append(
        claim(
            "Fig. 1: heat maps of SVM-w, SVM-FIRM and y-FIRM",
            "colours only, no numbers or scale",
            "our heat maps (firm_fig1_boolean.png) with the values printed",
            "not attempted",
            "the figure gives no numbers to compare; its sentences are checked above",
        )
    )
    return out


def _corr(a: dict, b: dict) -> float:
    keys = sorted(a)
    return float(np.corrcoef([a[k] for k in keys], [b[k] for k in keys])[0, 1])


# ------------------------------------------------------------------- figure
LITERALS = [(j, v) for j in range(N_VARIABLES) for v in (1, 0)]


def _literal_label(j: int, v: int) -> str:
    return f"x{j + 1}" if v == 1 else f"\u00acx{j + 1}"


def _pair_matrix(result) -> np.ndarray:
    """6 x 6 matrix over the literals x1, not x1, ..., NaN within a variable."""
    size = len(LITERALS)
    out = np.full((size, size), np.nan)
    for r, (j, a) in enumerate(LITERALS):
        for c, (k, b) in enumerate(LITERALS):
            if j != k:
                out[r, c] = result.pairs[j, k, a, b]
    return out


def _heatmap(ax, values, rows, cols, vmax, title):
    cmap = plt.get_cmap("bwr").copy()
    cmap.set_bad("0.85")
    ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=-vmax, vmax=vmax)
    ax.set_xticks(range(len(cols)), cols)
    ax.set_yticks(range(len(rows)), rows)
    ax.set_title(title, fontsize=9)
    for (r, c), v in np.ndenumerate(values):
        if np.isfinite(v):
            color = "white" if abs(v) > 0.6 * vmax else "black"
            text = f"{round(v, 10) + 0.0:.2f}"
            ax.text(c, r, text, ha="center", va="center", fontsize=6.5, color=color)


def plot(run: dict, title: str):
    """Heat maps as in Figure 1: columns SVM-w, SVM-FIRM, y-FIRM."""
    weights = run["arrays"]["weights"]
    svm_firm, y_firm = run["arrays"]["svm_firm"], run["arrays"]["y_firm"]
    fig, axes = plt.subplots(2, 3, figsize=(11, 6.8), constrained_layout=True)
    names = [f"x{j + 1}" for j in range(N_VARIABLES)]
    lits = [_literal_label(j, v) for j, v in LITERALS]
    w_max = np.nanmax(np.abs(np.r_[weights["single"], weights["pairs"].ravel()]))
    w_single = weights["single"][None, :]
    _heatmap(axes[0, 0], w_single, ["w"], names, w_max, "SVM-w: monomials xj")
    upper = np.where(np.triu(np.ones((3, 3)), 1) > 0, weights["pairs"], np.nan)
    _heatmap(axes[1, 0], upper, names, names, w_max, "SVM-w: monomials xj xk")
    for col, (res, label) in enumerate(
        [(svm_firm, "SVM-FIRM"), (y_firm, "y-FIRM")], start=1
    ):
        pm = _pair_matrix(res)
        vmax = np.nanmax(np.abs(np.r_[res.single.ravel(), pm.ravel()]))
        single = res.single[:, ::-1].T  # rows: x_j, not x_j
        rows = ["xj", "\u00acxj"]
        _heatmap(axes[0, col], single, rows, names, vmax, f"{label}: literals")
        pair_title = f"{label}: conjunctions (row \u2227 column)"
        _heatmap(axes[1, col], pm, lits, lits, vmax, pair_title)
    fig.suptitle(title + "   (red > 0, blue < 0)", fontsize=10)
    return fig


FORMULA_LABEL = "x1 \u2228 (\u00acx1 \u2227 \u00acx2)"


def main(argv=None) -> int:
    args = _common.parser(__doc__.splitlines()[0]).parse_args(argv)
    data = compute(args.seed, args.quick)
    runs = data.pop("_runs")
    out = args.out
    title = f"{FORMULA_LABEL}, hard-margin SVM with (x\u1d40x')\u00b2"
    fig = plot(runs["homogeneous"], title + " (reproduces the paper)")
    _common.save_figure(fig, out, STEM)
    if not args.quick:
        fig = plot(runs["inhomogeneous"], title.replace("x')", "x' + 1)"))
        _common.save_figure(fig, out, f"{STEM}_inhomogeneous")
    path = _common.write_json(out, STEM, data)
    rep = data["reproduced_s_at_x1_1_x2_0"]
    print(
        f"s at (x1,x2)=(1,0): {rep['value']:.6f} (paper 1.667, "
        f"|diff| {rep['abs_diff']:.2e})"
    )
    print(f"s at (x1,x2)=(0,1): {data['reproduced_s_at_x1_0_x2_1']['value']:.6f}")
    for key in ("svm_w", "svm_firm", "y_firm"):
        print(f"{key} ranking: {data['homogeneous'][key]['ranking'][:5]}")
    for entry in data["claims"]:
        print(f"[{entry['verdict']}] {entry['claim']}")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
