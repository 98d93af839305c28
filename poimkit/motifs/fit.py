"""Fit motifs (PWM, mean position, spread) to a POIM: the motifPOIM approach.

Each motif g contributes ``v_gk R_gk`` to the POIM of order k (see
`poimkit.motifs.motif_poim`); the scales ``v_gk`` are solved in closed form (least
squares) for given shapes, and the shapes (PWM logits, mean start, log
spread) are fitted with scipy's L-BFGS-B on the analytic gradient, from
several starts. The loss is the relative residual
``sum_k ||Q_k - sum_g v_gk R_gk||^2 / sum_k ||Q_k||^2``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

from ..alphabet import ALPHABET
from .motif_poim import PlacedPwm, motif_poim, motif_poim_gradient

MIN_SPREAD = 0.3
MIN_GAMMA = 0.05


@dataclass
class MotifShape:
    """Parameters of one motif in a fit: PWM logits, mean 0-based start, spread.

    Parameters
    ----------
    logits : numpy.ndarray of float, shape (m, 4)
        The PWM is their row-wise softmax.
    mu : float
        Mean 0-based start.
    sigma : float
        Spread (standard deviation) of the start.
    gamma : float
        Temper of the score's growth with matching letters, in (0, 1].
    """

    logits: np.ndarray  # (m, 4)
    mu: float
    sigma: float
    gamma: float = 0.5  # temper of the score's growth with matching letters

    @property
    def pwm(self) -> np.ndarray:
        """Softmax of the logits, row-wise."""
        e = np.exp(self.logits - self.logits.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    @property
    def placed(self) -> PlacedPwm:
        """The motif these parameters describe (`motif_poim`'s argument)."""
        return PlacedPwm(self.pwm, self.mu, self.sigma, self.gamma)

    @classmethod
    def from_string(
        cls, string: str, mu: float, sigma: float, strength: float = 2.0, pad: int = 0
    ) -> MotifShape:
        """Seed shape: logit ``strength`` on the string's letters, 0 elsewhere.

        Parameters
        ----------
        string : str
            The seed over ``ACGT``.
        mu : float
            Mean 0-based start of the string.
        sigma : float
            Spread of the start (at least `MIN_SPREAD`).
        strength : float
            Logit of each string letter.
        pad : int
            Uniform columns added on each side (the mean start moves left by
            ``pad``).

        Returns
        -------
        MotifShape
        """
        logits = np.zeros((len(string) + 2 * pad, 4))
        for c, letter in enumerate(string):
            logits[pad + c, ALPHABET.index(letter)] = strength
        return cls(logits, mu - pad, max(sigma, MIN_SPREAD))


def pack_shapes(shapes: list[MotifShape]) -> np.ndarray:
    """The optimiser's vector of motif shapes: logits, mean, log spread, log temper.

    Parameters
    ----------
    shapes : list of MotifShape
        The motifs.

    Returns
    -------
    numpy.ndarray of float64
    """
    return np.concatenate(
        [
            np.r_[s.logits.ravel(), s.mu, np.log(s.sigma), np.log(s.gamma)]
            for s in shapes
        ]
    )


def unpack_shapes(x: np.ndarray, template: list[MotifShape]) -> list[MotifShape]:
    """The motif shapes of an optimiser's vector (`pack_shapes`).

    Parameters
    ----------
    x : numpy.ndarray of float64
        The packed vector.
    template : list of MotifShape
        Shapes of the same sizes, in the same order.

    Returns
    -------
    list of MotifShape
    """
    out, at = [], 0
    for s in template:
        n = s.logits.size
        out.append(
            MotifShape(
                x[at : at + n].reshape(s.logits.shape),
                float(x[at + n]),
                float(np.exp(x[at + n + 1])),
                float(np.exp(x[at + n + 2])),
            )
        )
        at += n + 3
    return out


def _scales(q: np.ndarray, shapes_r: list[np.ndarray]) -> np.ndarray:
    """Least-squares scales v_g of ``q ~ sum_g v_g R_g`` (tiny ridge for stability)."""
    # Pairwise dot products, not a stacked matmul: multithreaded BLAS matrix
    # products on these thin shapes were far slower on a loaded 2-core machine.
    n = len(shapes_r)
    gram = np.empty((n, n))
    for i in range(n):
        for j in range(i, n):
            gram[i, j] = gram[j, i] = np.vdot(shapes_r[i], shapes_r[j])
    gram += 1e-12 * (np.trace(gram) + 1e-300) * np.eye(n)
    rhs = np.array([np.vdot(r, q) for r in shapes_r])
    return np.linalg.solve(gram, rhs)


class MotifPoimFit:
    """The loss of a set of motif shapes against a POIM, and its gradient.

    Parameters
    ----------
    poims : dict of int to numpy.ndarray
        The orders to fit, ``Q_k`` of shape (L - k + 1, 4**k).
    length : int
        Sequence length L.
    background : numpy.ndarray of shape (4,)
        Letter probabilities b of the model.
    norm : float, optional
        Divisor of the loss; default ``sum_k ||Q_k||^2`` (a residual problem
        keeps its parent's, so losses stay comparable).
    """

    def __init__(
        self,
        poims: dict[int, np.ndarray],
        length: int,
        background: np.ndarray,
        norm: float | None = None,
    ) -> None:
        self.poims = poims
        self.length = length
        self.background = np.asarray(background, dtype=np.float64)
        self.norm = (
            sum(float((q**2).sum()) for q in poims.values()) if norm is None else norm
        )

    def residual(self, shapes: list[MotifShape]) -> MotifPoimFit:
        """The same fit problem on what the given motifs leave unexplained.

        Parameters
        ----------
        shapes : list of MotifShape
            The motifs whose fitted contribution is removed.

        Returns
        -------
        MotifPoimFit
            With this fit's loss divisor.
        """
        _, scales, _ = self.evaluate(shapes, gradient=False)
        rest = {}
        for k, q in self.poims.items():
            rest[k] = q - sum(
                v * self._poim(s, k) for v, s in zip(scales[k], shapes, strict=True)
            )
        return MotifPoimFit(rest, self.length, self.background, norm=self.norm)

    def _poim(self, s: MotifShape, k: int) -> np.ndarray:
        return motif_poim(s.placed, k, self.length, self.background)

    def evaluate(
        self, shapes: list[MotifShape], gradient: bool = True
    ) -> tuple[float, dict[int, np.ndarray], np.ndarray | None]:
        """Relative residual, per-order scales and (optionally) the gradient.

        Parameters
        ----------
        shapes : list of MotifShape
            The motifs.
        gradient : bool
            Also compute the gradient.

        Returns
        -------
        loss : float
            The relative residual.
        scales : dict of int to numpy.ndarray
            Least-squares scales ``v_gk`` per order k.
        gradient : numpy.ndarray or None
            In the packed parameters (logits, mean, log spread, log temper of
            each shape); None without ``gradient``.
        """
        loss, scales = 0.0, {}
        grads = [np.zeros(s.logits.size + 3) for s in shapes]
        for k, q in self.poims.items():
            rs = [self._poim(s, k) for s in shapes]
            v = _scales(q, rs)
            scales[k] = v
            resid = q - sum(vg * r for vg, r in zip(v, rs, strict=True))
            loss += float((resid**2).sum())
            if not gradient:
                continue
            for g, s in enumerate(shapes):
                d_pwm, d_mu, d_sigma, d_gamma = motif_poim_gradient(
                    s.placed, k, self.length, self.background, -2.0 * v[g] * resid
                )
                r = s.pwm  # chain through the softmax and the log-parameters
                d_logits = r * (d_pwm - (r * d_pwm).sum(axis=1, keepdims=True))
                grads[g] += np.r_[
                    d_logits.ravel(), d_mu, d_sigma * s.sigma, d_gamma * s.gamma
                ]
        loss /= self.norm
        if not gradient:
            return loss, scales, None
        return loss, scales, np.concatenate(grads) / self.norm

    def fit(
        self, shapes: list[MotifShape], max_iter: int = 200
    ) -> tuple[list[MotifShape], float, dict[int, np.ndarray]]:
        """L-BFGS-B from the given shapes.

        Parameters
        ----------
        shapes : list of MotifShape
            The starting shapes.
        max_iter : int
            Most L-BFGS-B iterations.

        Returns
        -------
        shapes : list of MotifShape
            The fitted shapes.
        loss : float
            Their relative residual.
        scales : dict of int to numpy.ndarray
            Their scales per order.
        """

        def fun(x):
            loss, _, grad = self.evaluate(unpack_shapes(x, shapes))
            return loss, grad

        bounds = []
        for s in shapes:
            m = s.logits.shape[0]
            bounds += [(-12.0, 12.0)] * s.logits.size
            bounds += [
                (-float(m), float(self.length)),
                (np.log(MIN_SPREAD), np.log(self.length / 2.0)),
                (np.log(MIN_GAMMA), 0.0),
            ]
        result = minimize(
            fun,
            pack_shapes(shapes),
            jac=True,
            method="L-BFGS-B",
            bounds=bounds,
            options={"maxiter": max_iter, "ftol": 1e-7},
        )
        best = unpack_shapes(result.x, shapes)
        loss, scales, _ = self.evaluate(best, gradient=False)
        return best, loss, scales
