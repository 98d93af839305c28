"""gkmsvm-lite's DeltaSVM, the peer of ``bench_genome.py``, in a child process."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from genome_commands import timed
from genome_config import GKM_L, SEED, WIDTH, log
from genome_variants import (
    variant_windows,
)


# --------------------------------------------------------------------------- #
# the peer
# --------------------------------------------------------------------------- #
def peer_available() -> str | None:
    try:
        import gkmsvm  # noqa: F401
    except ImportError:
        return "gkmsvm-lite is not installed (pip install poimkit[bench]): peer skipped"
    return None


def decode(seqs: list[np.ndarray]) -> list[str]:
    letters = np.frombuffer(b"ACGT", dtype=np.uint8)
    return [letters[x].tobytes().decode() for x in seqs]


def run_peer(g, pos, neg, snv, sample, args, work: Path) -> dict:
    """gkmsvm-lite: train on a sample, then kernel, gkmexplain and DeltaSVM effects."""
    import gkmsvm

    rng = np.random.default_rng(SEED)
    half = args.peer_n // 2
    p = rng.choice(len(pos), min(half, len(pos)), replace=False)
    n = rng.choice(len(neg), min(half, len(neg)), replace=False)
    out: dict = {"train_records": int(p.size + n.size)}
    log(f"gkmsvm-lite: train_gkmsvm on {p.size} + {n.size} records")
    start = time.perf_counter()
    model = gkmsvm.train_gkmsvm(
        decode([pos[i] for i in p]), decode([neg[i] for i in n]), device="cpu"
    )
    out["train_s"] = time.perf_counter() - start
    out["support_vectors"] = int(model.num_support_vectors)
    log(f"  {out['train_s']:.1f} s, {out['support_vectors']} support vectors")
    methods: dict = {}
    ref, alt = variant_windows(g, snv, sample, WIDTH)
    for method in ("kernel", "gkmexplain"):
        log(f"gkmsvm-lite score_variants(method={method!r}) on {sample.size} SNVs")
        start = time.perf_counter()
        effect = np.asarray(model.score_variants(ref, alt, method=method)).ravel()
        seconds = time.perf_counter() - start
        methods[method] = {"rows": sample, "effect": effect, "seconds": seconds}
        log(f"  {seconds:.1f} s ({sample.size / seconds:.1f} variants/s)")
    model_path = work / "gkmsvm_model.npz"
    gkmsvm.save_npz(model, model_path)
    rows = np.arange(snv["pos"].size)
    windows = work / "delta_windows.npz"
    r, a = variant_windows(g, snv, rows, 2 * GKM_L - 1)
    np.savez(windows, ref=r.astype(np.uint8), alt=a.astype(np.uint8))
    result = work / "delta_effects.npz"
    log(
        f"gkmsvm-lite to_deltasvm + DeltaSVM.score_variants on {rows.size} SNVs "
        f"(a child process, stopped after {args.budget:.0f} s)"
    )
    done = timed(
        [
            sys.executable,
            str(Path(__file__).resolve().parent / "bench_genome.py"),
            "--deltasvm-child",
            str(model_path),
            str(windows),
            str(result),
        ],
        args.budget,
    )
    if done["ok"]:
        data = np.load(result)
        methods["deltasvm"] = {
            "rows": rows,
            "effect": data["effect"],
            "seconds": float(data["score_s"]),
            "table_s": float(data["table_s"]),
        }
    else:
        methods["deltasvm"] = {"error": done["error"]}
    out["methods"] = methods
    return out


def deltasvm_child(model_path: str, windows: str, result: str) -> None:
    import gkmsvm

    model = gkmsvm.load_npz(model_path, device="cpu")
    start = time.perf_counter()
    delta = model.to_deltasvm(verbose=True)  # tqdm: the ETA if it is stopped
    table_s = time.perf_counter() - start
    data = np.load(windows)
    start = time.perf_counter()
    effect = np.asarray(
        delta.score_variants(
            data["ref"].astype(np.float32), data["alt"].astype(np.float32)
        )
    ).ravel()
    score_s = time.perf_counter() - start
    np.savez(result, effect=effect, table_s=table_s, score_s=score_s)
