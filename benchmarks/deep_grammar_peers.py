"""The peers of `bench_deep_grammar.py`: tangermeme spacing, DeepLIFT/SHAP, modisco."""

from __future__ import annotations

import time
import traceback
import warnings

import numpy as np
from deep_grammar_design import (  # noqa: E402
    LENGTH,
    MOTIFS,
    best_matches,
    log,
    logit_module,
    rc,
)
from run_info import close  # noqa: E402


def tangermeme_spacing(network, counter, args) -> dict:
    """tangermeme's space (pair effect per spacing) and marginalize (each motif
    alone at the pair's positions) for A-B, every orientation."""
    import torch
    from tangermeme.marginalize import marginalize
    from tangermeme.space import space

    model = logit_module(network)
    a, b = MOTIFS["A"], MOTIFS["B"]
    rng = np.random.default_rng(args.seed + 7)
    codes_x = rng.integers(0, 4, size=(args.int_samples, LENGTH))
    X = torch.from_numpy(np.eye(4, dtype=np.float32)[codes_x].transpose(0, 2, 1).copy())
    distances = list(range(0, args.max_distance + 1))
    orientations = ["++", "+-", "-+", "--"]
    kw = {"batch_size": 256, "device": "cpu"}
    # 1. space: E f(x + A + B) - E f(x), every spacing (the tangermeme way)
    snap = counter.snapshot()
    start = time.perf_counter()
    pair_effect = np.zeros((4, len(distances)))
    pair_se = np.zeros((4, len(distances)))
    base = None
    pair_scores = {}
    for i, o in enumerate(orientations):
        ma = a if o[0] == "+" else rc(a)
        mb = b if o[1] == "+" else rc(b)
        y0, y1 = space(model, X, [ma, mb], [[d] for d in distances], **kw)
        y0 = y0[:, 0].double().numpy()
        y1 = y1[:, :, 0].double().numpy()  # (n, spacings)
        pair_scores[o] = y1
        diff = y1 - y0[:, None]
        pair_effect[i] = diff.mean(0)
        pair_se[i] = diff.std(0, ddof=1) / np.sqrt(diff.shape[0])
        base = y0
    space_s = time.perf_counter() - start
    space_cost = counter.since(snap)
    o, d = np.unravel_index(np.argmax(pair_effect), pair_effect.shape)
    space_peak = {
        "orientation": orientations[o],
        "distance": distances[d],
        "pair_effect": float(pair_effect[o, d]),
        "stderr": float(pair_se[o, d]),
    }
    log(f"tangermeme space: peak {space_peak}, {space_s:.0f} s, {space_cost}")
    # 2. marginalize A alone and B alone at the pair's positions -> interaction
    snap = counter.snapshot()
    start = time.perf_counter()
    inter = np.zeros((4, len(distances)))
    inter_se = np.zeros((4, len(distances)))
    for i, o in enumerate(orientations):
        ma = a if o[0] == "+" else rc(a)
        mb = b if o[1] == "+" else rc(b)
        for j, d in enumerate(distances):
            n = len(a) + d + len(b)
            s_a = LENGTH // 2 - n // 2  # multisubstitute's start
            s_b = s_a + len(a) + d
            ya = (
                marginalize(model, X, ma, start=s_a, **kw)
                .y_after[:, 0]
                .double()
                .numpy()
            )
            yb = (
                marginalize(model, X, mb, start=s_b, **kw)
                .y_after[:, 0]
                .double()
                .numpy()
            )
            diff = pair_scores[o][:, j] - ya - yb + base
            inter[i, j] = diff.mean()
            inter_se[i, j] = diff.std(ddof=1) / np.sqrt(diff.size)
    marg_s = time.perf_counter() - start + space_s  # the route needs space's calls too
    marg_cost = counter.since(snap)
    marg_cost = {k: v + space_cost[k] for k, v in marg_cost.items()}
    o, d = np.unravel_index(np.argmax(np.abs(inter)), inter.shape)
    inter_peak = {
        "orientation": orientations[o],
        "distance": distances[d],
        "interaction": float(inter[o, d]),
        "stderr": float(inter_se[o, d]),
    }
    log(f"tangermeme space+marginalize interaction: peak {inter_peak}, {marg_s:.0f} s")
    return {
        "space_seconds": space_s,
        "space_cost": space_cost,
        "space_peak": space_peak,
        "pair_effect": pair_effect.tolist(),
        "pair_effect_stderr": pair_se.tolist(),
        "interaction_seconds": marg_s,
        "interaction_cost": marg_cost,
        "interaction_peak": inter_peak,
        "interaction": inter.tolist(),
        "interaction_stderr": inter_se.tolist(),
        "note": "space's pair effect is E f(x+A+B) - E f(x) (A's and B's own "
        "effects included); the interaction adds marginalize calls of each "
        "motif alone at the pair's positions; its time and cost include "
        "space's (the pair scores are reused)",
    }


# --------------------------------------------------------------------------- #
# attributions + modisco
# --------------------------------------------------------------------------- #
def run_modisco(one_hot_nl4: np.ndarray, hyp_nl4: np.ndarray) -> dict:
    from modiscolite.tfmodisco import TFMoDISco
    from motif_recovery_config import MODISCO
    from motif_recovery_methods import modisco_found

    settings = dict(MODISCO)
    if len(one_hot_nl4) < 300:
        settings["min_metacluster_size"] = 30
    start = time.perf_counter()
    pos, neg = TFMoDISco(
        one_hot=one_hot_nl4.astype(np.float32),
        hypothetical_contribs=hyp_nl4.astype(np.float32),
        **settings,
    )
    seconds = time.perf_counter() - start
    rows = []
    for sign, patterns in (("positive", pos), ("negative", neg)):
        for p in patterns or []:
            f = modisco_found(p)
            rows.append(
                {
                    "sign": sign,
                    "consensus": f.consensus,
                    "n_seqlets": f.extra["n_seqlets"],
                    "planted": {n: close(f.consensus, t) for n, t in MOTIFS.items()},
                }
            )
    pos_rows = [r for r in rows if r["sign"] == "positive"]
    return {
        "seconds": seconds,
        "settings": settings,
        "patterns": rows,
        "planted": best_matches(pos_rows),
    }


def attributions_and_modisco(cnn, counter, X_attr, args) -> dict:
    import torch

    from poimkit.explain.ism import ism_attributions

    out = {"n_records": int(len(X_attr))}
    ohe = np.eye(4, dtype=np.float32)[X_attr]  # (n, L, 4)
    # poimkit ISM
    snap = counter.snapshot()
    start = time.perf_counter()
    att = ism_attributions(cnn, X_attr)
    out["ism"] = {"seconds": time.perf_counter() - start, **counter.since(snap)}
    log(f"ISM: {out['ism']}")
    hyp = att.hypothetical.transpose(0, 2, 1)
    try:
        out["ism"]["modisco"] = run_modisco(ohe, hyp)
        log(f"modisco on ISM: {len(out['ism']['modisco']['patterns'])} patterns")
    except Exception:
        out["ism"]["modisco_error"] = traceback.format_exc()
        log("modisco on ISM failed:\n" + out["ism"]["modisco_error"])
    # tangermeme DeepLIFT/SHAP on the DilatedCNN
    from tangermeme.deep_lift_shap import deep_lift_shap

    model = logit_module(cnn.network_)
    X = torch.from_numpy(ohe.transpose(0, 2, 1).copy())
    snap = counter.snapshot()
    start = time.perf_counter()
    dls = {}
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            attr = deep_lift_shap(
                model,
                X,
                hypothetical=True,
                n_shuffles=args.n_shuffles,
                batch_size=64,
                random_state=args.seed,
                device="cpu",
            )
        dls["seconds"] = time.perf_counter() - start
        dls.update(counter.since(snap))
        messages = sorted({str(w.message)[:300] for w in caught})
        dls["n_warnings"] = len(caught)
        dls["warnings"] = [m for m in messages if "Convergence deltas are" in m][:3] + [
            m for m in messages if "Convergence deltas are" not in m
        ][:2]
        hyp_d = attr.double().numpy().transpose(0, 2, 1)
        # how close the two attributions are, letter by letter (observed letters)
        a1 = (att.hypothetical.transpose(0, 2, 1) * ohe).sum(-1)
        a2 = (hyp_d * ohe).sum(-1)
        dls["pearson_with_ism"] = float(np.corrcoef(a1.ravel(), a2.ravel())[0, 1])
        log(f"deep_lift_shap: {dls['seconds']:.0f} s, {dls['n_warnings']} warnings")
        try:
            dls["modisco"] = run_modisco(ohe, hyp_d)
            log(f"modisco on DeepLIFT: {len(dls['modisco']['patterns'])} patterns")
        except Exception:
            dls["modisco_error"] = traceback.format_exc()
            log("modisco on DeepLIFT failed:\n" + dls["modisco_error"])
    except Exception:
        dls["error"] = traceback.format_exc()
        dls["seconds"] = time.perf_counter() - start
        log("deep_lift_shap failed:\n" + dls["error"])
    out["deep_lift_shap"] = dls
    return out


# --------------------------------------------------------------------------- #
# report
# --------------------------------------------------------------------------- #
