"""gkmsvm-lite's Nystroem model for mixed lengths (a peer of ``bench_gkm_scale.py``)."""

from __future__ import annotations

import time

import numpy as np


# --------------------------------------------------------------------------- #
# gkmsvm-lite's Nystrom mode for mixed lengths
# --------------------------------------------------------------------------- #
def gkmsvm_nystrom_class():
    from kernels_real_peers import GkmsvmLite, length_groups, raw_block

    def kernel_matrix(kernel, a: list[str], b: list[str] | None = None) -> np.ndarray:
        """Normalised kernel of a with b (None: with a; ``compute_gram``'s tiles).

        Blocks per pair of length groups; with b None only the upper blocks are
        computed and mirrored, as ``gkmsvm.gram.compute_gram`` does.
        """
        ga = length_groups(kernel, a, rc=b is None)
        gb = ga if b is None else length_groups(kernel, b)
        out = np.empty((len(a), len(a) if b is None else len(b)))
        for i, x in enumerate(ga):
            for j, z in enumerate(gb):
                if b is None and j < i:
                    continue
                block = raw_block(kernel, x, z)
                if kernel.normalize:
                    norm = np.clip(np.sqrt(np.outer(x.diag, z.diag)), 1e-10, None)
                    block = block / norm
                out[np.ix_(x.rows, z.rows)] = block
                if b is None and j != i:
                    out[np.ix_(z.rows, x.rows)] = block.T
        return out

    class GkmsvmNystrom(GkmsvmLite):
        """``train_gkmsvm(solver="nystrom")`` (``_fit_nystrom``) for any lengths."""

        def __repr__(self) -> str:
            return "gkmsvm-lite Nystrom (defaults otherwise)"

        def fit(self, seqs: list[str], y) -> GkmsvmNystrom:
            from kernels_real_peers import gkmsvm_defaults
            from sklearn.svm import SVC

            y = np.asarray(y)
            kernel, self.kernel_type_ = self._kernel()
            N = len(seqs)
            m = min(N, max(1000, int(np.sqrt(N) * 10)))
            landmarks = np.sort(np.random.RandomState(42).choice(N, m, replace=False))
            marks = [seqs[i] for i in landmarks]
            start = time.perf_counter()
            K_mm = kernel_matrix(kernel, marks)
            K_nm = kernel_matrix(kernel, seqs, marks)
            self.gram_seconds_ = time.perf_counter() - start
            values, U = np.linalg.eigh(K_mm)
            valid = values > max(1e-10, values.max() * 1e-8)
            values, U = values[valid], U[:, valid]
            features = (K_nm @ U) / np.sqrt(values)[None, :]
            del K_nm, K_mm, U
            gram = features @ features.T
            del features
            C = gkmsvm_defaults()["C"]
            svc = SVC(C=C, kernel="precomputed").fit(gram, np.where(y == 1, 1, -1))
            del gram
            self.path_ = "grouped"
            self.kernel_ = kernel
            self.n_components_, self.rank_ = m, int(valid.sum())
            self.sv_seqs_ = [seqs[i] for i in svc.support_]
            self.coef_ = svc.dual_coef_[0].copy()
            self.bias_ = float(svc.intercept_[0])
            self.n_support_ = int(len(svc.support_))
            return self

    return GkmsvmNystrom
