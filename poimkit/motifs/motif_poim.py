"""The POIM a positioned motif induces (the motifPOIM model) and its gradient.

A motif is a PWM ``r`` of m columns whose start T is distributed around a
mean ``mu`` with spread ``sigma`` (a normal density on the valid 0-based starts
``0..L-m``, renormalised). Modelling the classifier's score as a positional
scan ``s(x) ~ v sum_t phi_t prod_c (r_c(x_{t+c}) / b(x_{t+c}))**gamma`` under a
background with letter probabilities b, the POIM it induces is

    R_k(z, j) = sum_t phi_t (prod_{c in overlap(t, j)} (r_c(u_c) / b(u_c))**gamma - 1),

with ``u_c = z_{t+c-j}`` the window's letter facing motif column c,

since each motif column outside the window averages to
``e_c = E_b[(r_c / b)**gamma]`` (1 for gamma = 1; the exact form multiplies the
overlap's product by the outside columns' e_c and subtracts the product of all
e_c, so that every window's R averages to 0 like the POIM). The
temper ``gamma`` in (0, 1] lets a sharp PWM describe a classifier whose score
grows less than multiplicatively with the number of matching letters (WD
kernels add k-mer matches), instead of forcing the PWM soft. Writing d = t - j,
``R_k = Phi_k F_k`` with ``Phi_k[j, d] = phi_{j+d}`` and
``F_k[d] = kron(f_0, ..., f_{k-1}) - 1`` where ``f_p = r_{p-d} / b`` on the
overlap and ones elsewhere. Everything here is dense numpy on small arrays.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class PlacedPwm(NamedTuple):
    """A motif of the motifPOIM model: a PWM whose start spreads around a mean.

    Attributes
    ----------
    pwm : numpy.ndarray of float, shape (m, 4)
        Motif letter probabilities r.
    mu : float
        Mean 0-based start.
    sigma : float
        Spread (standard deviation) of the start.
    gamma : float
        Temper, in (0, 1].
    """

    pwm: np.ndarray
    mu: float
    sigma: float
    gamma: float = 1.0


def start_distribution(
    mu: float, sigma: float, n_starts: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """phi_t for t = 0..n_starts-1 and its derivatives in mu and sigma.

    Parameters
    ----------
    mu : float
        Mean 0-based start.
    sigma : float
        Spread (> 0).
    n_starts : int
        Number of valid starts, ``L - m + 1``.

    Returns
    -------
    phi, d_mu, d_sigma : numpy.ndarray of float64, shape (n_starts,)
        The normal density on the starts, renormalised, and its derivatives
        (all mass on the nearest edge, and zero derivatives, for a mean far
        outside).
    """
    t = np.arange(n_starts, dtype=np.float64)
    u = np.exp(-0.5 * ((t - mu) / sigma) ** 2)
    total = u.sum()
    if total < 1e-300:  # mean far outside the sequence: put all mass on the edge
        u = np.zeros(n_starts)
        u[int(np.clip(round(mu), 0, n_starts - 1))] = 1.0
        return u, np.zeros(n_starts), np.zeros(n_starts)
    phi = u / total
    du_mu = u * (t - mu) / sigma**2
    du_sigma = u * (t - mu) ** 2 / sigma**3
    d_mu = du_mu / total - phi * du_mu.sum() / total
    d_sigma = du_sigma / total - phi * du_sigma.sum() / total
    return phi, d_mu, d_sigma


def _factors(pwm: np.ndarray, background: np.ndarray, k: int, d: int, gamma: float):
    """Per-letter factors f_p = (r_c / b)**gamma of window positions p for offset d."""
    m = pwm.shape[0]
    factors = []
    for p in range(k):
        c = p - d
        factors.append((pwm[c] / background) ** gamma if 0 <= c < m else np.ones(4))
    return factors


def _kron(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Kronecker product of two vectors (np.kron's overhead dominates here)."""
    return (a[:, None] * b[None, :]).ravel()


def _kron_all(vectors) -> np.ndarray:
    out = np.ones(1)
    for v in vectors:
        out = _kron(out, v)
    return out


def offsets(m: int, k: int) -> np.ndarray:
    """Offsets d = t - j of motif start relative to window start that overlap.

    Parameters
    ----------
    m : int
        Number of motif columns.
    k : int
        Window (k-mer) length.

    Returns
    -------
    numpy.ndarray of int
        ``-(m - 1) .. k - 1``.
    """
    return np.arange(-(m - 1), k)


def _column_means(pwm: np.ndarray, background: np.ndarray, gamma: float):
    """e_c = E_b[(r_c / b)**gamma] per motif column (1 for gamma = 1)."""
    return ((pwm / background) ** gamma * background).sum(axis=1)


def _outside(means: np.ndarray, m: int, k: int, d: int) -> float:
    """Product of e_c over the motif columns outside the window at offset d."""
    inside = np.zeros(m, dtype=bool)
    inside[max(0, -d) : min(m, k - d)] = True
    return float(np.prod(means[~inside]))


def overlap_matrix(
    pwm: np.ndarray, background: np.ndarray, k: int, gamma: float = 1.0
) -> np.ndarray:
    """F_k per offset: ``prod_in f_c(z) prod_out e_c - prod_all e_c``, all k-mers.

    Parameters
    ----------
    pwm : numpy.ndarray of float, shape (m, 4)
        Motif letter probabilities r.
    background : numpy.ndarray of float, shape (4,)
        Letter probabilities b.
    k : int
        k-mer length.
    gamma : float
        Temper, in (0, 1].

    Returns
    -------
    numpy.ndarray of float64, shape (m + k - 1, 4**k)
        One row per offset of `offsets`.
    """
    m = pwm.shape[0]
    means = _column_means(pwm, background, gamma)
    total = float(np.prod(means))
    return np.stack(
        [
            _kron_all(_factors(pwm, background, k, d, gamma)) * _outside(means, m, k, d)
            - total
            for d in offsets(m, k)
        ]
    )


def position_matrix(phi: np.ndarray, m: int, k: int, length: int) -> np.ndarray:
    """Phi_k[j, d] = phi_{j + d} (zero outside the valid starts).

    Parameters
    ----------
    phi : numpy.ndarray of float, shape (L - m + 1,)
        Start distribution (`start_distribution`).
    m : int
        Number of motif columns.
    k : int
        k-mer length.
    length : int
        Sequence length L.

    Returns
    -------
    numpy.ndarray of float64, shape (L - k + 1, m + k - 1)
    """
    n_windows = length - k + 1
    ds = offsets(m, k)
    t = np.arange(n_windows)[:, None] + ds[None, :]
    inside = (t >= 0) & (t < phi.size)
    return np.where(inside, phi[np.clip(t, 0, phi.size - 1)], 0.0)


def motif_poim(
    motif: PlacedPwm, k: int, length: int, background: np.ndarray
) -> np.ndarray:
    """R_k(z, j) of one motif, shape (L - k + 1, 4**k) (without its scale v).

    Parameters
    ----------
    motif : PlacedPwm
        The motif.
    k : int
        POIM order.
    length : int
        Sequence length L.
    background : numpy.ndarray of float, shape (4,)
        Letter probabilities b.

    Returns
    -------
    numpy.ndarray of float64, shape (L - k + 1, 4**k)
    """
    pwm, mu, sigma, gamma = motif
    m = pwm.shape[0]
    phi, _, _ = start_distribution(mu, sigma, length - m + 1)
    return position_matrix(phi, m, k, length) @ overlap_matrix(
        pwm, background, k, gamma
    )


def motif_poim_gradient(
    motif: PlacedPwm,
    k: int,
    length: int,
    background: np.ndarray,
    grad_r: np.ndarray,
) -> tuple[np.ndarray, float, float, float]:
    """Pull ``dL/dR_k`` (shape (L-k+1, 4**k)) back to the motif's parameters.

    Parameters
    ----------
    motif, k, length, background
        As in `motif_poim`.
    grad_r : numpy.ndarray of float, shape (L - k + 1, 4**k)
        Gradient of the loss in ``R_k``.

    Returns
    -------
    (d_pwm, d_mu, d_sigma, d_gamma)
        ``d_pwm`` has the shape of ``motif.pwm`` (derivative in the
        probabilities).
    """
    pwm, mu, sigma, gamma = motif
    m = pwm.shape[0]
    n_starts = length - m + 1
    phi, phi_mu, phi_sigma = start_distribution(mu, sigma, n_starts)
    position = position_matrix(phi, m, k, length)
    overlap = overlap_matrix(pwm, background, k, gamma)
    grad_f = position.T @ grad_r  # (n_d, 4**k)
    grad_position = grad_r @ overlap.T  # (n_windows, n_d)
    ds = offsets(m, k)
    t = np.arange(length - k + 1)[:, None] + ds[None, :]
    inside = (t >= 0) & (t < n_starts)
    grad_phi = np.bincount(t[inside], weights=grad_position[inside], minlength=n_starts)
    d_mu = float(grad_phi @ phi_mu)
    d_sigma = float(grad_phi @ phi_sigma)

    d_pwm = np.zeros_like(pwm)
    d_gamma = 0.0
    log_ratio = np.log(pwm / background)
    means = _column_means(pwm, background, gamma)
    total = float(np.prod(means))
    d_means = np.zeros(m)  # dL/de_c, chained to r and gamma at the end
    for row, d in enumerate(ds):
        factors = _factors(pwm, background, k, d, gamma)
        outside = _outside(means, m, k, d)
        inside = np.zeros(m, dtype=bool)
        inside[max(0, -d) : min(m, k - d)] = True
        tensor = grad_f[row] * outside
        spread_term = float(grad_f[row] @ _kron_all(factors))
        d_means[~inside] += spread_term * outside / means[~inside]
        d_means -= float(grad_f[row].sum()) * total / means
        prefix = [np.ones(1)]
        for f in factors[:-1]:
            prefix.append(_kron(prefix[-1], f))
        suffix = [np.ones(1)]
        for f in reversed(factors[1:]):
            suffix.append(_kron(f, suffix[-1]))
        suffix.reverse()
        for p in range(k):
            c = p - d
            if 0 <= c < m:
                block = tensor.reshape(prefix[p].size, 4, suffix[p].size)
                g = np.einsum("i,iaj,j->a", prefix[p], block, suffix[p])
                # f = (r / b)**gamma: df/dr = gamma f / r, df/dgamma = f log(r / b)
                d_pwm[c] += g * gamma * factors[p] / pwm[c]
                d_gamma += float(g @ (factors[p] * log_ratio[c]))
    tempered = (pwm / background) ** gamma
    d_pwm += d_means[:, None] * background * gamma * tempered / pwm
    d_gamma += float(d_means @ (background * tempered * log_ratio).sum(axis=1))
    return d_pwm, d_mu, d_sigma, d_gamma
