"""Slow, obviously correct reference implementations, compared with the fast code.

Plain module of functions; each one states the definition it implements.
"""

from __future__ import annotations

import numpy as np


def _beta(k: int, degree: int) -> float:
    return 2.0 * (degree - k + 1) / (degree * (degree + 1))


def _delta(s: int) -> float:
    return 1.0 / (2.0 * (s + 1))


def wd_kernel_naive(X1, X2=None, degree=20, shift=0):
    """WD / WDS kernel by direct comparison of substrings (small inputs only).

    k(x, x') = sum_{k=1..d} beta_k sum_{i=0..L-k} [ I(x[i:i+k] = x'[i:i+k])
               + sum_{s=1..S, i <= L-k-s} delta_s ( I(x[i+s:i+s+k] = x'[i:i+k])
                                                  + I(x[i:i+k] = x'[i+s:i+s+k]) ) ]
    """
    X1 = np.asarray(X1)
    X2 = X1 if X2 is None else np.asarray(X2)
    length = X1.shape[1]
    rows1 = [bytes(row.astype(np.uint8)) for row in X1]
    rows2 = [bytes(row.astype(np.uint8)) for row in X2]
    K = np.zeros((len(rows1), len(rows2)))
    for a, x in enumerate(rows1):
        for b, y in enumerate(rows2):
            total = 0.0
            for k in range(1, degree + 1):
                beta = _beta(k, degree)
                for i in range(0, length - k + 1):
                    if x[i : i + k] == y[i : i + k]:
                        total += beta
                    for s in range(1, shift + 1):
                        if i + s + k > length:
                            continue
                        if x[i + s : i + s + k] == y[i : i + k]:
                            total += beta * _delta(s)
                        if x[i : i + k] == y[i + s : i + s + k]:
                            total += beta * _delta(s)
            K[a, b] = total
    return K


def _kmer_codes(X: np.ndarray, k: int) -> np.ndarray:
    """Index sum_p X[:, i+p] 4**(k-1-p) of the k-mer at every start i."""
    m = X.shape[1] - k + 1
    out = np.zeros((X.shape[0], m), dtype=np.int64)
    for p in range(k):
        out = out * 4 + X[:, p : p + m]
    return out


def wd_kernel_kmers(X1, X2=None, degree=20, shift=0):
    """WD / WDS kernel from positional k-mer indices, vectorised over pairs.

    Same definition as `wd_kernel_naive`; for medium inputs (k-mers are
    indexed in int64, so ``min(degree, L) <= 31``).
    """
    X1 = np.asarray(X1).astype(np.int64)
    X2 = X1 if X2 is None else np.asarray(X2).astype(np.int64)
    length = X1.shape[1]
    assert min(degree, length) <= 31
    K = np.zeros((X1.shape[0], X2.shape[0]))
    for k in range(1, min(degree, length) + 1):
        beta = _beta(k, degree)
        c1, c2 = _kmer_codes(X1, k), _kmer_codes(X2, k)
        m = c1.shape[1]
        K += beta * (c1[:, None, :] == c2[None, :, :]).sum(axis=2)
        for s in range(1, min(shift, m - 1) + 1):
            plus = (c1[:, None, s:] == c2[None, :, : m - s]).sum(axis=2)
            minus = (c1[:, None, : m - s] == c2[None, :, s:]).sum(axis=2)
            K += beta * _delta(s) * (plus + minus)
    return K


def explicit_weights_naive(support_vectors, coef, degree, shift):
    """Dense weights ``{k: (L-k+1, 4**k)}`` straight from the WDS definition.

    For a test sequence x and support vector x_j, each kernel term is an
    indicator on one k-mer of x; its weight is added at that k-mer's start
    position and the support vector's k-mer there (shifted for WDS terms).
    """
    sv = np.asarray(support_vectors)
    length = sv.shape[1]
    out = {}
    for k in range(1, min(degree, length) + 1):
        beta = 2.0 * (degree - k + 1) / (degree * (degree + 1))
        w = np.zeros((length - k + 1, 4**k))
        for row, c in zip(sv, coef, strict=True):

            def index(p, row=row, k=k):
                value = 0
                for letter in row[p : p + k]:
                    value = value * 4 + int(letter)
                return value

            for i in range(length - k + 1):
                w[i, index(i)] += beta * c  # I(x[i:i+k] = x_j[i:i+k])
            for s in range(1, shift + 1):
                delta = 1.0 / (2.0 * (s + 1))
                for i in range(length - k - s + 1):
                    w[i + s, index(i)] += beta * delta * c  # x[i+s:] vs x_j[i:]
                    w[i, index(i + s)] += beta * delta * c  # x[i:] vs x_j[i+s:]
        out[k] = w
    return out
