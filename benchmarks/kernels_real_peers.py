"""gkmsvm-lite, the peer of ``bench_kernels_real.py``, on in-memory DNA strings."""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass

import numpy as np

# gkmsvm-lite pins numba's threading layer when imported before any parallel
# kernel ran; imported first, both libraries run on the same layer (recorded).
try:
    import gkmsvm
except ImportError:  # the column is skipped with a note
    gkmsvm = None


from kernels_real_data import Data, stratified_subset

import poimkit


# --------------------------------------------------------------------------- #
# gkmsvm-lite
# --------------------------------------------------------------------------- #
def gkmsvm_defaults() -> dict:
    """The defaults of ``gkmsvm.train_gkmsvm`` (read from its signature)."""
    params = inspect.signature(gkmsvm.train_gkmsvm).parameters
    names = ("kernel_type", "l", "k", "d", "C", "include_rc", "solver", "tol")
    out = {n: params[n].default for n in names if n in params}
    out["kernel"] = gkmsvm.resolve_kernel_type(out["kernel_type"])
    return out


class GkmsvmLite:
    """gkmsvm-lite trained and scored on in-memory DNA strings.

    Equal lengths: ``gkmsvm.train_gkmsvm`` and ``GkmSVM.__call__``. Mixed
    lengths: the same kernel object, Gram blocks per pair of length groups,
    the same scikit-learn SVC (see the module docstring).
    """

    def __init__(self, kernel_type: str | None = None, path: str = "auto"):
        self.kernel_type = kernel_type
        self.path = path

    def __repr__(self) -> str:
        kt = self.kernel_type or gkmsvm_defaults()["kernel"]
        return f"gkmsvm-lite({kt}, defaults otherwise)"

    def _kernel(self):
        from gkmsvm.svm import KERNEL_BUILDERS, resolve_kernel_type

        d = gkmsvm_defaults()
        kernel_type = resolve_kernel_type(self.kernel_type or d["kernel_type"])
        params = {"L": d["l"], "k": d["k"], "d": d["d"], "include_rc": d["include_rc"]}
        return KERNEL_BUILDERS[kernel_type](params), kernel_type

    def fit(self, seqs: list[str], y) -> GkmsvmLite:
        y = np.asarray(y)
        same = len({len(s) for s in seqs}) == 1
        self.path_ = "grouped" if self.path == "grouped" or not same else "api"
        self.gram_seconds_ = None
        if self.path_ == "api":
            kwargs = {"device": "cpu"}
            if self.kernel_type is not None:
                kwargs["kernel_type"] = self.kernel_type
            self.model_ = gkmsvm.train_gkmsvm(
                [s for s, t in zip(seqs, y, strict=True) if t == 1],
                [s for s, t in zip(seqs, y, strict=True) if t != 1],
                **kwargs,
            )
            self.n_support_ = int(self.model_.num_support_vectors)
            return self
        from sklearn.svm import SVC

        kernel, self.kernel_type_ = self._kernel()
        start = time.perf_counter()
        groups = length_groups(kernel, seqs)
        raw = np.zeros((len(seqs), len(seqs)))
        for a, ga in enumerate(groups):
            for gb in groups[a:]:
                block = raw_block(kernel, ga, gb)
                raw[np.ix_(ga.rows, gb.rows)] = block
                raw[np.ix_(gb.rows, ga.rows)] = block.T
        diag = np.empty(len(seqs))
        for g in groups:
            diag[g.rows] = g.diag
        gram = raw
        if kernel.normalize:
            gram = raw / np.clip(np.sqrt(np.outer(diag, diag)), 1e-10, None)
        self.gram_seconds_ = time.perf_counter() - start
        C = gkmsvm_defaults()["C"]
        svc = SVC(C=C, kernel="precomputed").fit(gram, np.where(y == 1, 1, -1))
        support = svc.support_
        self.kernel_ = kernel
        self.sv_seqs_ = [seqs[i] for i in support]
        self.coef_ = svc.dual_coef_[0].copy()
        self.bias_ = float(svc.intercept_[0])
        self.n_support_ = int(len(support))
        return self

    def decision_function(self, seqs: list[str]) -> np.ndarray:
        from gkmsvm import one_hot_encode

        if self.path_ == "api":
            x = np.stack([one_hot_encode(s) for s in seqs])
            return np.asarray(self.model_(x))[:, 0].astype(np.float64)
        kernel = self.kernel_
        sv_groups = length_groups(kernel, self.sv_seqs_)
        scores = np.full(len(seqs), self.bias_)
        for gx in length_groups(kernel, seqs, rc=False):
            for gs in sv_groups:
                block = raw_block(kernel, gx, gs)
                if kernel.normalize:
                    norm = np.sqrt(np.outer(gx.diag, gs.diag))
                    block = block / np.clip(norm, 1e-10, None)
                scores[gx.rows] += block @ self.coef_[gs.rows]
        return scores


@dataclass
class LengthGroup:
    rows: np.ndarray
    windows: np.ndarray  # (n, W, l) int8 base indices, forward strand
    rc_windows: np.ndarray | None  # reverse strand
    diag: np.ndarray  # raw self-kernel (both strands)


def length_groups(kernel, seqs: list[str], rc: bool = True) -> list[LengthGroup]:
    """Sequences by length: the kernel's windows of each strand and diagonal."""
    from gkmsvm import one_hot_encode, reverse_complement

    lengths = np.array([len(s) for s in seqs])
    groups = []
    for length in np.unique(lengths):
        rows = np.flatnonzero(lengths == length)
        x = np.stack([one_hot_encode(seqs[i]) for i in rows])
        rc_windows = None
        if rc and kernel.include_rc:
            rc_windows = kernel.base_index_windows(reverse_complement(x))
        diag = np.asarray(kernel._raw_diagonal(x), dtype=np.float64)
        groups.append(LengthGroup(rows, kernel.base_index_windows(x), rc_windows, diag))
    return groups


def raw_block(kernel, ga: LengthGroup, gb: LengthGroup) -> np.ndarray:
    """Unnormalised kernel between two length groups (``gkmsvm.gram``'s tile)."""
    block = kernel.pairwise_from_indices(ga.windows, gb.windows)
    if kernel.include_rc:
        block = block + kernel.pairwise_from_indices(ga.windows, gb.rc_windows)
    return np.asarray(block, dtype=np.float64)


def check_gkmsvm(data: Data, n_per_class: int = 40) -> dict:
    """The grouped path against ``train_gkmsvm`` + ``GkmSVM`` on equal lengths."""
    lengths = data.lengths
    common = np.bincount(lengths).argmax()
    rows = np.flatnonzero(lengths == common)
    rows = np.r_[
        rows[data.y[rows] == 1][:n_per_class], rows[data.y[rows] == 0][:n_per_class]
    ]
    sub = data.subset(rows)
    out = {"length": int(common), "n": len(rows)}
    for kt in (None, "gkm_cnt"):
        scores = {}
        for path in ("api", "grouped"):
            start = time.perf_counter()
            model = GkmsvmLite(kt, path).fit(sub.seqs, sub.y)
            fit_s = time.perf_counter() - start
            start = time.perf_counter()
            scores[path] = model.decision_function(sub.seqs)
            out[f"{kt or 'default'}_{path}_seconds"] = [
                fit_s,
                time.perf_counter() - start,
            ]
        diff = np.abs(scores["api"] - scores["grouped"]).max()
        out[f"{kt or 'default'}_max_abs_diff"] = float(diff)
    fn = getattr(poimkit, "gkm_kernel", None)
    if fn is not None:  # the same kernel up to a factor? (mixed lengths)
        from gkmsvm.svm import KERNEL_BUILDERS

        d = gkmsvm_defaults()
        rows = stratified_subset(data.y, n_per_class // 2, 3)
        seqs = [data.seqs[i] for i in rows]
        kernel = KERNEL_BUILDERS["gkm_cnt"](
            {"L": d["l"], "k": d["k"], "include_rc": d["include_rc"]}
        )
        groups = length_groups(kernel, seqs)
        raw = np.zeros((len(seqs), len(seqs)))
        for ga in groups:
            for gb in groups:
                raw[np.ix_(ga.rows, gb.rows)] = raw_block(kernel, ga, gb)
        ours = fn(seqs, l=d["l"], k=d["k"], reverse_complement=d["include_rc"])
        ratio = ours / raw
        out["gkm_kernel_over_gkm_cnt_raw"] = [float(ratio.min()), float(ratio.max())]
    return out
