"""Slow, obviously correct reference implementations, compared with the fast code.

Plain module of functions, shared by the tests; each one states the definition
it implements. Builders of test data live in ``factories.py``.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

# --------------------------------------------------------------------------
# WD / WDS kernels
# --------------------------------------------------------------------------


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


def wd_diagonal_constant(length, degree):
    """k(x, x) of the WD kernel (no shift), the same for every sequence.

    Every one of the ``L - k + 1`` k-mers of x matches itself, so k(x, x) is
    ``sum_{k=1..min(d, L)} beta_k (L - k + 1)``.
    """
    return sum(
        2.0 * (degree - k + 1) / (degree * (degree + 1)) * (length - k + 1)
        for k in range(1, min(degree, length) + 1)
    )


def _mismatch_weight(k, j, mismatches):
    """Weight of a k-mer pair at Hamming distance j (Shogun's WD weights)."""
    if j <= min(mismatches, k - 1):
        return 1.0 / (math.comb(k, j) * 3**j)
    return 0.0


def _wd_pair_naive(x, y, degree, shift, mismatches):
    """k(x, y) straight from the definition, one substring pair at a time."""
    length = len(x)
    total = 0.0
    for k in range(1, min(degree, length) + 1):
        beta = _beta(k, degree)
        for i in range(length - k + 1):
            hamming = sum(int(x[i + t] != y[i + t]) for t in range(k))
            total += beta * _mismatch_weight(k, hamming, mismatches)
            for s in range(1, shift + 1):
                if i + s + k > length:
                    continue
                delta = 1.0 / (2.0 * (s + 1))
                total += (
                    beta * delta * (list(x[i + s : i + s + k]) == list(y[i : i + k]))
                )
                total += (
                    beta * delta * (list(x[i : i + k]) == list(y[i + s : i + s + k]))
                )
    return total


def wd_kernel_mismatch_rc_naive(X1, X2=None, degree=3, shift=0, mismatches=0, rc=False):
    """Gram matrix of the WD kernel with mismatches and both strands, pair by pair.

    k(x, x') sums ``beta_k mu_k(H)`` over the k-mer pairs at each start, H
    their Hamming distance and ``mu_k(j) = 1 / (C(k, j) 3**j)`` for
    ``j <= min(m, k - 1)`` (else 0), plus the WDS shift terms; with ``rc``,
    k(rc(x), x') is added, ``rc(x)[i] = 3 - x[L-1-i]``.
    """
    X1 = np.asarray(X1, dtype=np.int64)
    X2 = X1 if X2 is None else np.asarray(X2, dtype=np.int64)
    K = np.zeros((len(X1), len(X2)))
    for a, x in enumerate(X1):
        x_rc = [3 - c for c in x[::-1]]
        for b, y in enumerate(X2):
            K[a, b] = _wd_pair_naive(x, y, degree, shift, mismatches)
            if rc:
                K[a, b] += _wd_pair_naive(x_rc, y, degree, shift, mismatches)
    return K


def explicit_weights_mismatch_rc_naive(sv, coef, degree, mismatches, rc):
    """Dense weights ``{k: (L-k+1, 4**k)}`` of ``sum_j coef_j k(x_j, x)`` (shift 0).

    From the definition of `wd_kernel_mismatch_rc_naive`: every k-mer z at
    start i gets ``beta_k mu(H(z, x_j[i:i+k])) coef_j``, and with ``rc`` also
    the weight of ``rc(z)`` at start ``L - i - k``.
    """
    length = sv.shape[1]
    out = {}
    for k in range(1, min(degree, length) + 1):
        kmers = (np.arange(4**k)[:, None] >> (2 * np.arange(k - 1, -1, -1))) & 3
        w = np.zeros((length - k + 1, 4**k))
        for row, c in zip(sv, coef, strict=True):
            for i in range(length - k + 1):
                hamming = (kmers != row[i : i + k]).sum(axis=1)
                mu = np.array(
                    [_mismatch_weight(k, h, mismatches) for h in range(k + 1)]
                )
                w[i] += _beta(k, degree) * c * mu[hamming]
        if rc:
            rc_index = ((3 - kmers[:, ::-1]) * 4 ** np.arange(k - 1, -1, -1)).sum(1)
            w = w + w[::-1, rc_index]
        out[k] = w
    return out


# --------------------------------------------------------------------------
# gapped k-mer and LS-GKM kernels
# --------------------------------------------------------------------------


def gkm_kernel_naive(a, b, l, k, rc):
    """Gapped k-mer kernel of two code arrays by enumeration of their l-mer pairs.

    ``sum_{u in a, v in b} C(l - d(u, v), k)`` over the l-mers of both
    strands (of one with ``rc`` False), d the Hamming distance.
    """

    def lmers(x):
        rows = [x, (3 - x)[::-1]] if rc else [x]
        return [row[i : i + l] for row in rows for i in range(row.size - l + 1)]

    return float(
        sum(math.comb(l - int((u != v).sum()), k) for u in lmers(a) for v in lmers(b))
    )


def lsgkm_score_naive(support, coef, rho, table, l, rc, x):
    """LS-GKM score of kernel types 0-2 for string x, pair of l-mers by pair.

    ``sum_i c_i K(x, x_i) / sqrt(K(x, x) K(x_i, x_i)) - rho`` with
    ``K(a, b) = sum_{u in a, v in b} table[d(u, v)]`` over the l-mers of a and
    those of b (and of its reverse complement with ``rc``).
    """

    def lmers(s):
        return [s[i : i + l] for i in range(len(s) - l + 1)]

    def kernel(a, b):
        right = lmers(b) + (lmers(reverse_complement_text(b)) if rc else [])
        return sum(
            table[sum(p != q for p, q in zip(u, v, strict=True))]
            for u in lmers(a)
            for v in right
        )

    total = sum(
        c * kernel(x, s) / np.sqrt(kernel(x, x) * kernel(s, s))
        for c, s in zip(coef, support, strict=True)
    )
    return total - rho


def lsgkm_rbf_score_naive(t, l, k, d, support, coef, rho, rc, gamma, M, H, x):
    """LS-GKM score of kernel types 3-5 from its definition (libsvm_gkm.c).

    Windows weighted ``min(M, floor(M 0.5**(|c - a| / H) + 1))`` around the
    centre c (type 3: all 1), the weighted gkm kernel normalised per pair, and
    ``exp(gamma (k - 1))`` of it for the RBF types 3 and 5; pair by pair.
    """
    from poimkit.svm.lsgkm import mismatch_table

    table = mismatch_table(2, l, k, d)

    def weights(n):
        if t == 3:
            return [1] * n
        c = n // 2
        return [min(M, math.floor(M * 0.5 ** (abs(c - a) / H) + 1)) for a in range(n)]

    def windows(s):
        n = len(s) - l + 1
        return list(zip([s[a : a + l] for a in range(n)], weights(n), strict=True))

    def kernel(a, b):
        right = windows(b)
        if rc:  # the reverse complement of window b keeps b's weight
            right += [(reverse_complement_text(v), w) for v, w in windows(b)]
        return sum(
            wu * wv * table[sum(p != q for p, q in zip(u, v, strict=True))]
            for u, wu in windows(a)
            for v, wv in right
        )

    total = 0.0
    for c, s in zip(coef, support, strict=True):
        value = kernel(x, s) / math.sqrt(kernel(x, x) * kernel(s, s))
        total += c * (value if t == 4 else math.exp(gamma * (value - 1.0)))
    return total - rho


# --------------------------------------------------------------------------
# sequences and backgrounds
# --------------------------------------------------------------------------


def reverse_complement_text(s):
    """Reverse complement of a string over ACGT: reversed, A<->T and C<->G."""
    return s[::-1].translate(str.maketrans("ACGT", "TGCA"))


def all_sequences(length):
    """All 4**L code sequences of length L, in k-mer index order (uint8 rows)."""
    return np.array(list(itertools.product(range(4), repeat=length)), dtype=np.uint8)


def kmer_probabilities_naive(bg, k, position):
    """Pr(k-mer at ``position``) of a background, summed over all 4**L sequences."""
    from poimkit.alphabet import kmer_indices

    X = all_sequences(bg.length)
    prob = np.exp(bg.log_probability(X))
    return np.bincount(kmer_indices(X, k)[:, position], weights=prob, minlength=4**k)


def conditional_probabilities_naive(background, kmer, position):
    """Pr(X = x | X[j:j+l] = z) for every sequence, by enumeration.

    The background's probability of each of the 4**L sequences, zero where z
    is not at ``position``, divided by their sum.
    """
    from poimkit.alphabet import encode

    X = all_sequences(background.length)
    prob = np.exp(background.log_probability(X))
    z = encode(kmer)[0]
    match = np.all(X[:, position : position + z.size] == z, axis=1)
    cond = np.where(match, prob, 0.0)
    return cond / cond.sum()


def dinucleotide_arrangements(seq):
    """Every sequence with the dinucleotide counts and first letter of ``seq``.

    Depth-first walk over the remaining dinucleotide counts: the support of a
    uniform dinucleotide shuffle, as tuples of codes.
    """
    from poimkit.genome.shuffle import dinucleotide_counts

    counts = dinucleotide_counts(seq)[:4, :4].copy()
    found, path = [], [int(seq[0])]

    def walk():
        if len(path) == seq.size:
            found.append(tuple(path))
            return
        u = path[-1]
        for v in range(4):
            if counts[u, v]:
                counts[u, v] -= 1
                path.append(v)
                walk()
                path.pop()
                counts[u, v] += 1

    walk()
    return found


# --------------------------------------------------------------------------
# POIMs
# --------------------------------------------------------------------------


def kmer_letters(index, k):
    """Codes of the k-mer with index ``index`` (first letter most significant)."""
    return [(index >> (2 * (k - 1 - p))) & 3 for p in range(k)]


def uniform_poim_single_weight(length, k, i, y, w, width):
    """POIM ``(L - width + 1, 4**width)`` of one weight w on (y, i), uniform order 0.

    Hand formula: Pr(y at i | z at j) is 0 if y and z disagree on their
    overlap (o letters), else 4**-(k - o); Q = w (Pr(y at i | z at j) - 4**-k),
    and 0 for windows that do not overlap (i, k).
    """
    out = np.zeros((length - width + 1, 4**width))
    y_letters = kmer_letters(y, k)
    for j in range(length - width + 1):
        lo, hi = max(i, j), min(i + k, j + width)
        if lo >= hi:
            continue  # no overlap: Q = 0 under order 0
        for z in range(4**width):
            z_letters = kmer_letters(z, width)
            agree = all(z_letters[p - j] == y_letters[p - i] for p in range(lo, hi))
            cond = 4.0 ** -(k - (hi - lo)) if agree else 0.0
            out[j, z] = w * (cond - 4.0**-k)
    return out


# --------------------------------------------------------------------------
# motifs, sites and variants
# --------------------------------------------------------------------------


def word_count_naive(x, word, both):
    """Occurrences of ``word`` in string x (and of its reverse complement).

    Every start j where x reads the word (or, with ``both``, the word's
    reverse complement), overlaps included.
    """
    words = [word, reverse_complement_text(word)] if both else [word]
    return sum(x.startswith(w, j) for w in words for j in range(len(x)))


def motif_features_naive(X, motif, background, smoothing=0.0):
    """Best window score of each row over the allowed placements, by enumeration.

    Log-odds ``log2(freq / background)`` of the motif's counts with one site
    of pseudocount (mixed with ``smoothing`` of background), summed over each
    window near the motif's position (anywhere if it has none), on both
    strands when its sites are; rows with no window score their minimum.
    """
    n = motif.n_sites or 100
    freq = (motif.pwm * n + background) / (n + 1)  # one site of pseudocount
    freq = (1 - smoothing) * freq + smoothing * background
    lods = np.log2(freq / background)
    m, L = motif.length, X.shape[1]
    rc = lods[::-1, ::-1]
    out = []
    for x in X:
        best = -np.inf
        for a in range(L - m + 1):
            free = np.isnan(motif.position)
            near = abs(a - (motif.position - 1)) <= max(3 * motif.spread, 1.0)
            if not (free or near):
                continue
            window = x[a : a + m]
            best = max(best, lods[np.arange(m), window].sum())
            if motif.sites.on_both_strands:  # reads_both_strands
                best = max(best, rc[np.arange(m), window].sum())
        out.append(best if np.isfinite(best) else lods.min(axis=1).sum())
    return np.array(out)


def mutagenesis_naive(model, X, rows, starts, width):
    """In-silico mutagenesis ``(len(rows), width, 4)`` by scoring mutated copies.

    For each window (row, start) and each of its columns c and letters a: the
    score of ``X[row]`` with letter a at ``start + c``, minus the score of
    ``X[row]`` (``model`` is anything with ``decision_function``).
    """
    out = np.zeros((len(rows), width, 4))
    for r, (row, s) in enumerate(zip(rows, starts, strict=True)):
        base = model.decision_function(X[row : row + 1])[0]
        for c in range(width):
            for a in range(4):
                x = X[row].copy()
                x[s + c] = a
                out[r, c, a] = model.decision_function(x[None])[0] - base
    return out


def bh_q_values_naive(p):
    """Benjamini-Hochberg q-values by their definition; NaN p-values stay NaN.

    ``q_i = min(1, min_{j >= rank(p_i)} p_(j) m / j)`` over the m p-values
    that are not NaN, ``p_(j)`` the j-th smallest and ties sharing the highest
    rank.
    """
    ok = ~np.isnan(p)
    m = int(ok.sum())
    q = np.full(p.shape, np.nan)
    ranked = np.sort(p[ok])
    for i in np.flatnonzero(ok):
        rank = int(np.sum(ranked < p[i])) + int(np.sum(ranked == p[i]))
        q[i] = min(1.0, min(ranked[j - 1] * m / j for j in range(rank, m + 1)))
    return q


def motif_column_correlation(a, b):
    """Pearson correlation of two 4-letter columns, 0 when either is flat."""
    if np.ptp(a) < 1e-12 or np.ptp(b) < 1e-12:
        return 0.0
    return float(np.corrcoef(a, b)[0, 1])


def motif_alignment_score_naive(query, pwm, offset):
    """Score and overlap of ``pwm`` aligned with its column 0 at query ``offset``.

    The sum of `motif_column_correlation` over the overlapping column pairs,
    divided by the query's length; and the number of those pairs.
    """
    pairs = [(i, i - offset) for i in range(query.length) if 0 <= i - offset < len(pwm)]
    total = sum(motif_column_correlation(query.pwm[i], pwm[j]) for i, j in pairs)
    return total / query.length, len(pairs)


def best_motif_alignment_naive(query, known, min_overlap):
    """Best alignment of ``known`` on ``query`` over every strand and shift, by loops.

    Returns (score, offset, strand, overlap) of the highest
    `motif_alignment_score_naive` among alignments overlapping at least
    ``min(min_overlap, m, n)`` columns (the first one found on ties).
    """
    m, n = query.length, known.length
    need = min(min_overlap, m, n)
    best = (-np.inf, None, None, None)
    for strand, pwm in (("+", known.pwm), ("-", known.pwm[::-1, ::-1])):
        for offset in range(-(n - 1), m):
            score, overlap = motif_alignment_score_naive(query, pwm, offset)
            if overlap >= need and score > best[0] + 1e-12:
                best = (score, offset, strand, overlap)
    return best


def strongest_placement_naive(model, codes, p, alt):
    """(column, effect) of the SNV at p whose window of L letters scores it most.

    Every placement of the SNV in a window ``codes[p - c : p - c + L]`` inside
    ``codes``, scored by the model as alt minus ref; the first of the largest
    absolute effects.
    """
    L = model.length_
    best = None
    for c in range(L):
        start = p - c
        if start < 0 or start + L > codes.size:
            continue
        ref = codes[start : start + L].copy()
        mutated = ref.copy()
        mutated[c] = alt
        effect = float(np.diff(model.decision_function(np.stack([ref, mutated])))[0])
        if best is None or abs(effect) > abs(best[1]):
            best = (c, effect)
    return best


# --------------------------------------------------------------------------
# solvers and calibration
# --------------------------------------------------------------------------


def platt_objective(a, b, s, positive):
    """Platt's smoothed cross-entropy of the sigmoid ``1 / (1 + exp(-(a s + b)))``.

    ``sum_i t_i log(1 + e^-z_i) + (1 - t_i) log(1 + e^z_i)`` with
    ``z = a s + b`` and Platt's smoothed targets t.
    """
    from poimkit.svm.calibration import platt_targets

    t = platt_targets(positive)
    z = a * s + b
    return np.sum(t * np.logaddexp(0, -z) + (1 - t) * np.logaddexp(0, z))


def primal_objective(w, Phi, y, C, loss):
    """Primal objective and gradient on an explicit feature matrix (bias last).

    ``0.5 |w|^2 + C sum_i loss(y_i phi_i w)`` with the bias not penalised, and
    its gradient ``w + C Phi^T (loss' y)``.
    """
    from poimkit.svm.linear.losses import loss_terms

    value, d1, _ = loss_terms(loss, y * (Phi @ w))
    reg = w.copy()
    reg[-1] = 0.0
    return 0.5 * reg @ reg + C * value, reg + C * Phi.T @ (d1 * y)


def primal_lbfgs(Phi, y, C, loss, n_iter, memory):
    """Plain L-BFGS on the explicit feature matrix (bias column last).

    The reference of the sequence-space solver: the same two-loop recursion,
    pair rule and line search, on vectors of one entry per column, for
    ``n_iter`` steps of `primal_objective` from w = 0.
    """
    from poimkit.svm.linear.lbfgs import _line_search

    w = np.zeros(Phi.shape[1])
    pen = np.ones_like(w)
    pen[-1] = 0.0  # the bias is not penalised
    _, g = primal_objective(w, Phi, y, C, loss)
    pairs = []
    for _ in range(n_iter):
        q, alphas = g.copy(), []
        for s, yv in reversed(pairs):
            alphas.append((s @ q) / (s @ yv))
            q -= alphas[-1] * yv
        if pairs:
            s, yv = pairs[-1]
            q *= (s @ yv) / (yv @ yv)
        else:
            q /= max(np.linalg.norm(g), 1.0)
        for (s, yv), a in zip(pairs, reversed(alphas), strict=True):
            q += (a - (yv @ q) / (s @ yv)) * s
        d = -q
        t = _line_search((pen * w) @ d, (pen * d) @ d, Phi @ w, Phi @ d, y, C, loss)
        s = t * d
        w = w + s
        _, g_new = primal_objective(w, Phi, y, C, loss)
        if s @ (g_new - g) > 1e-12 * (s @ s):
            pairs = (pairs + [(s, g_new - g)])[-memory:]
        g = g_new
    return w


def l2_svr_predictions_liblinear(K, y, C, epsilon):
    """LIBLINEAR's L2-loss SVR on the exact feature map ``Phi Phi^T = K``.

    ``Phi = V sqrt(lambda)`` from the eigendecomposition of K; the fitted
    predictions on Phi. Its bias is penalised, made negligible by a large
    ``intercept_scaling``.
    """
    from sklearn.svm import LinearSVR

    lam, V = np.linalg.eigh(K)
    Phi = V * np.sqrt(np.clip(lam, 0.0, None))
    svr = LinearSVR(
        loss="squared_epsilon_insensitive",
        epsilon=epsilon,
        C=C,
        dual=False,
        intercept_scaling=1e3,
        tol=1e-12,
        max_iter=100_000,
    ).fit(Phi, y)
    return svr.predict(Phi)


# --------------------------------------------------------------------------
# feature importance
# --------------------------------------------------------------------------


def fiblr_step_naive(theta, X_std, bins, counts, Y, eta):
    """One FIBLR gradient step, eqs. 8-9, one parameter at a time, as printed.

    (Sign of eq. 9 corrected.) Each bin's intercept and slope move by eta
    times the mean over its entries of ``(p - Y)`` and ``(p - Y) x``, p the
    logistic of the summed bin scores of the row.
    """
    from scipy.special import expit

    m, n = X_std.shape
    n_params = counts.size
    b, w = theta[:n_params].copy(), theta[n_params:].copy()
    new_b, new_w = b.copy(), w.copy()
    for k in range(Y.shape[1]):
        z = np.array(
            [
                sum(b[bins[i, j], k] + w[bins[i, j], k] * X_std[i, j] for j in range(n))
                for i in range(m)
            ]
        )
        p = expit(z)
        for q in range(n_params):
            rows, cols = np.nonzero(bins == q)
            if rows.size == 0:
                continue
            delta_b = np.sum(p[rows] - Y[rows, k])
            delta_w = np.sum((p[rows] - Y[rows, k]) * X_std[rows, cols])
            new_b[q, k] -= eta * delta_b / rows.size
            new_w[q, k] -= eta * delta_w / rows.size
    return np.vstack([new_b, new_w])


def numeric_gradient(f, x, h=1e-5):
    """Central finite differences ``(f(x + h e_j) - f(x - h e_j)) / 2h`` per j."""
    g = np.zeros_like(x)
    for j in range(x.size):
        e = np.zeros_like(x)
        e[j] = h
        g[j] = (f(x + e) - f(x - e)) / (2 * h)
    return g


def rbf_gram_naive(a, gamma):
    """RBF Gram matrix ``exp(-gamma |a_i - a_j|^2)`` of the rows of a, one by one."""
    a = a.reshape(len(a), -1)
    n = len(a)
    G = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            G[i, j] = np.exp(-gamma * np.sum((a[i] - a[j]) ** 2))
    return G


def median_gamma_naive(a):
    """Median heuristic ``1 / (2 median^2)`` over the nonzero pairwise distances."""
    a = a.reshape(len(a), -1)
    dists = [
        np.sqrt(np.sum((a[i] - a[j]) ** 2))
        for i in range(len(a))
        for j in range(i + 1, len(a))
    ]
    dists = [d for d in dists if d > 0]
    return 1.0 / (2.0 * np.median(dists) ** 2)


def hsic_biased_naive(K, L):
    """Biased HSIC of Gretton et al. (2005): tr(K H L H) / (n - 1)^2 with explicit H."""
    n = len(K)
    H = np.eye(n) - np.ones((n, n)) / n
    return np.trace(K @ H @ L @ H) / (n - 1) ** 2


def hsic_v_statistic_naive(K, L):
    """HSIC by the paper's definition with empirical expectations, term by term.

    E[k l] - 2 E_{x,y}[E_{x'}[k] E_{y'}[l]] + E[k] E[l].
    """
    n = len(K)
    first = sum(K[i, j] * L[i, j] for i in range(n) for j in range(n)) / n**2
    second = sum(K[i].mean() * L[i].mean() for i in range(n)) / n
    third = K.mean() * L.mean()
    return first - 2 * second + third


def hsic_unbiased_naive(K, L):
    """Unbiased HSIC of Song et al. (2012), eq. (5), with zeroed diagonals."""
    n = len(K)
    Kt, Lt = K.copy(), L.copy()
    np.fill_diagonal(Kt, 0)
    np.fill_diagonal(Lt, 0)
    one = np.ones(n)
    value = (
        np.trace(Kt @ Lt)
        + (one @ Kt @ one) * (one @ Lt @ one) / ((n - 1) * (n - 2))
        - 2.0 / (n - 2) * (one @ Kt @ Lt @ one)
    )
    return value / (n * (n - 3))


def all_pairs_permutation_naive(model, X, y, scorer):
    """All-pairs permutation importance over the explicitly built n(n-1) pairs.

    e_perm - e_orig (Molnar 5.5.1): for each feature j, the error on the data
    set of every ordered pair (i, k), i != k, of row i with feature j of row k,
    minus the error on X; errors are negated scores.
    """
    n, p = X.shape
    i, k = np.nonzero(~np.eye(n, dtype=bool))
    baseline = -scorer(model, X, y)
    out = np.empty(p)
    for j in range(p):
        X_pairs = X[i].copy()
        X_pairs[:, j] = X[k, j]
        out[j] = -scorer(model, X_pairs, y[i]) - baseline
    return out


def mean_abs_difference(v):
    """G = E|v* - v**| for two independent uniform draws (with replacement)."""
    return np.abs(v[:, None] - v[None, :]).mean()


def max_sensitivity_naive(model, X, y, grid_of):
    """Max-variant sensitivity by scoring every row at every grid value.

    For each feature j: the mean over rows of the range (max - min) of the
    model's prediction as x_j runs over ``grid_of(X[:, j])``, the others
    fixed; divided by the range of y.
    """
    d = []
    for j in range(X.shape[1]):
        grid = grid_of(X[:, j])
        rows = []
        for row in X:
            values = []
            for v in grid:
                r = row.copy()
                r[j] = v
                values.append(model.predict(r[None])[0])
            rows.append(max(values) - min(values))
        d.append(np.mean(rows))
    return np.array(d) / np.ptp(y)


def mean_score_fixed_naive(model, length, fixed):
    """E_x[f(x)] over all uniform sequences of ``length`` with letters ``fixed``.

    ``fixed`` maps a position to a letter code; the other positions take
    every letter (4**free sequences, scored at once).
    """
    free = [p for p in range(length) if p not in fixed]
    X = np.zeros((4 ** len(free), length), dtype=np.uint8)
    for p, code in fixed.items():
        X[:, p] = code
    for n, p in enumerate(free):
        X[:, p] = (np.arange(X.shape[0]) // 4**n) % 4
    return float(np.mean(model.decision_function(X)))


def dense_tables(weights):
    """Dense ``(L - k + 1, 4**k)`` tables of sparse positional k-mer weights."""
    tables = []
    for k in range(1, weights.max_order + 1):
        indptr, kmers, values = weights.order(k)
        table = np.zeros((weights.length - k + 1, 4**k))
        for i in range(weights.length - k + 1):
            rows = slice(indptr[i], indptr[i + 1])
            table[i, kmers[rows]] = values[rows]
        tables.append(table)
    return tables


def motif_hits_naive(packed, codes, cuts, grid=0.01):
    """Every window of every motif and strand scored one column at a time.

    The plain scan `poimkit.motifs.hits.PackedMotifs.hits` must equal: the
    score summed left to right in floats, a hit when it rounds to at least
    the cut in grid steps, its p-value read from the motif's tail. Returns
    (start, motif, minus, bits, p) lists, motif by motif, by start, the given
    strand first.
    """
    rows = ([], [], [], [], [])
    for m, width in enumerate(packed.widths.tolist()):
        for s in range(codes.size - width + 1):
            for strand in (0, 1):
                score = 0.0
                for j in range(width):
                    score += float(packed.tables[m, strand, j, codes[s + j]])
                if not score >= cuts[m] * grid - 0.5 * grid:
                    continue
                step = np.rint(score / grid)
                if step < cuts[m]:
                    continue
                index = min(
                    int(packed.starts[m] + step - packed.lows[m]),
                    int(packed.starts[m + 1]) - 1,
                )
                for row, value in zip(
                    rows,
                    (s, m, strand == 1, score, float(packed.tails[index])),
                    strict=True,
                ):
                    row.append(value)
    return rows


def score_tail_naive(log_odds_, background, grid=0.01):
    """`poimkit.motifs.scan.score_tail` as NumPy slices, column by column."""
    ints = np.rint(log_odds_ / grid).astype(np.int64)
    low = ints.min(axis=1)
    span = ints - low[:, None]
    dist = np.ones(1)
    for row, pr in zip(span, np.broadcast_to(background, span.shape), strict=True):
        new = np.zeros(dist.size + row.max())
        for a in range(4):
            new[row[a] : row[a] + dist.size] += pr[a] * dist
        dist = new
    return int(low.sum()), np.cumsum(dist[::-1])[::-1]
