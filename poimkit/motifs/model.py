"""Motif models: the reported motifs as a classifier or regressor of their own.

For motifs m = 1..M with PWM log-odds P_m (width w_m) and allowed placements
A_m, the feature of a sequence x is its best site score

    s_m(x) = max over a in A_m of sum_j P_m[j, x_{a+j}],

and the model is g(x) = c_0 + sum_m c_m s_m(x): logistic for classes
(`MotifClassifier`), ridge for targets (`MotifRegressor`), the penalty chosen
by an inner cross-validation (scikit-learn's ``LogisticRegressionCV`` and
``RidgeCV``) on standardised features. A positional motif (finite
``position``) may start within `SPREADS` standard deviations of its mean
start, on its own strand; a position-free one anywhere, on both strands
(``../shared/DESIGN.md``, "Motif model"). Log-odds are against the background
letters, with `PSEUDO_SITES` sites of pseudocount spread by them.

How much of a model the motifs explain is the fidelity
``(AUC(g) - 0.5) / (AUC(f) - 0.5)`` for classifiers and ``r(g) / r(f)`` for
regressors, on the same out-of-fold predictions (`fidelity`).
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from ..errors import InputError
from .motif import Motif

#: a positional motif's starts: its mean start +- this many SDs (at least 1 letter)
SPREADS = 3.0
#: pseudocount, in sites, added to a PWM's letters by their background share
PSEUDO_SITES = 1.0
#: sites a PWM counts as when its motif has none recorded (a PWM from a file)
DEFAULT_SITES = 100
#: penalties tried by the inner cross-validation
N_PENALTIES = 10
_FORMAT = "poimkit.MotifModel"
_VERSION = 1


def motif_log_odds(motif: Motif, background: np.ndarray) -> np.ndarray:
    """Log-odds (bits) of a motif's PWM against the background letters.

    Parameters
    ----------
    motif : Motif
        Its ``pwm`` and ``n_sites`` (`DEFAULT_SITES` if 0).
    background : numpy.ndarray of float, shape (4,)
        Background letter probabilities.

    Returns
    -------
    numpy.ndarray of float64, shape (m, 4)
    """
    n = motif.n_sites or DEFAULT_SITES
    freq = (motif.pwm * n + PSEUDO_SITES * background) / (n + PSEUDO_SITES)
    return np.log2(freq / background)


def reads_both_strands(motif: Motif) -> bool:
    """True for a position-free motif, or one whose sites lie on both strands.

    Parameters
    ----------
    motif : Motif

    Returns
    -------
    bool
    """
    return bool(
        np.isnan(motif.position)
        or (motif.sites is not None and motif.sites.on_both_strands)
    )


def placements(
    motif: Motif, length: int, both_strands: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Allowed starts of a motif in sequences of ``length``: given strand, other.

    Parameters
    ----------
    motif : Motif
        A positional motif (finite ``position``: 1-based mean start, with
        ``spread``) or a position-free one (NaN position).
    length : int
        The longest sequence's length.
    both_strands : bool
        Read the motif's reverse complement too (`reads_both_strands`).

    Returns
    -------
    allowed, allowed_rc : numpy.ndarray of int64
        0-based (leftmost) starts read on the given strand and as the
        reverse complement (empty for a motif read on one strand).
    """
    last = length - motif.length
    allowed = np.arange(max(last + 1, 0), dtype=np.int64)
    if not np.isnan(motif.position):
        half = max(SPREADS * float(motif.spread), 1.0)
        centre = float(motif.position) - 1.0
        allowed = allowed[(allowed >= centre - half) & (allowed <= centre + half)]
    return allowed, allowed if both_strands else allowed[:0]


def motif_features(
    X: np.ndarray,
    motifs: Sequence[Motif],
    background: np.ndarray,
    both_strands: Sequence[bool] | None = None,
) -> np.ndarray:
    """Best site score of every motif in every sequence, shape (n, M).

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes, perhaps `poimkit.motifs.scan.padded`.
    motifs : sequence of Motif
        The motifs (`placements`, `motif_log_odds`).
    background : numpy.ndarray of float, shape (4,)
        Background letters of the log-odds.
    both_strands : sequence of bool, optional
        Per motif, read its reverse complement too; default
        `reads_both_strands` of each.

    Returns
    -------
    numpy.ndarray of float64
        A sequence with no allowed window scores the motif's lowest possible
        score.
    """
    from .scan import best_windows

    if both_strands is None:
        both_strands = [reads_both_strands(m) for m in motifs]
    out = np.empty((X.shape[0], len(motifs)))
    for j, (motif, both) in enumerate(zip(motifs, both_strands, strict=True)):
        lods = motif_log_odds(motif, background)
        allowed, allowed_rc = placements(motif, X.shape[1], both)
        score, _, _ = best_windows(X, allowed, allowed_rc, lods)
        out[:, j] = np.where(np.isfinite(score), score, lods.min(axis=1).sum())
    return out


def fidelity(model_scores: ArrayLike, explanation_scores: ArrayLike, y: ArrayLike):
    """How much of a model's ranking (or correlation) an explanation keeps.

    ``(AUC(g) - 0.5) / (AUC(f) - 0.5)`` for labels 0/1, ``r(g) / r(f)``
    (Pearson) for continuous targets; f the model's scores, g the
    explanation's, both out of fold.

    Parameters
    ----------
    model_scores, explanation_scores : array-like of float, shape (n,)
    y : array-like, shape (n,)
        Labels 0/1 or continuous targets.

    Returns
    -------
    float
        NaN if the model itself is at chance.

    Examples
    --------
    >>> fidelity([0.1, 0.9, 0.2, 0.8], [0.1, 0.9, 0.8, 0.2], [0, 1, 0, 1])
    0.5
    """
    y = np.asarray(y)
    f, g = np.asarray(model_scores, float), np.asarray(explanation_scores, float)
    if set(np.unique(y).tolist()) <= {0, 1}:
        from sklearn.metrics import roc_auc_score

        top = roc_auc_score(y, f) - 0.5
        return float((roc_auc_score(y, g) - 0.5) / top) if top else float("nan")
    r_f = np.corrcoef(f, y)[0, 1]
    return float(np.corrcoef(g, y)[0, 1] / r_f) if r_f else float("nan")


class _MotifModelBase(BaseEstimator):
    """What `MotifClassifier` and `MotifRegressor` share."""

    def __init__(
        self,
        motifs: Sequence[Motif] = (),
        *,
        both_strands: Sequence[bool] | None = None,
        background: ArrayLike | None = None,
        cv: int = 5,
        random_state: int | None = 0,
    ):
        self.motifs = motifs
        self.both_strands = both_strands
        self.background = background
        self.cv = cv
        self.random_state = random_state

    def _strands(self) -> list[bool]:
        """Per motif, whether its reverse complement is read too."""
        if self.both_strands is None:
            return [reads_both_strands(m) for m in self.motifs]
        if len(self.both_strands) != len(self.motifs):
            raise InputError("both_strands needs one entry per motif")
        return [bool(b) for b in self.both_strands]

    def _background(self) -> np.ndarray:
        if self.background is None:
            return np.full(4, 0.25)
        b = np.asarray(self.background, dtype=np.float64)
        if b.shape != (4,) or (b <= 0).any() or not np.isclose(b.sum(), 1.0):
            raise InputError("background must be 4 positive letter probabilities")
        return b

    def _codes(self, X) -> np.ndarray:
        from ..kernels.gkm import as_sequences
        from .scan import padded

        return padded(as_sequences(X, "X"))

    def transform(self, X: ArrayLike) -> np.ndarray:
        """The motif features of X (`motif_features`), shape (n, M).

        Parameters
        ----------
        X : array-like
            Integer-coded sequences (n, L), or a list of code arrays or DNA
            strings of any lengths.

        Returns
        -------
        numpy.ndarray of float64
        """
        motifs = list(self.motifs)
        if not motifs:
            raise InputError("a motif model needs at least one motif")
        return motif_features(
            self._codes(X), motifs, self._background(), self._strands()
        )

    def fit(self, X: ArrayLike, y: ArrayLike):
        """Fit the motifs' coefficients (penalty by inner cross-validation).

        Parameters
        ----------
        X : array-like
            Sequences, as `transform` takes them.
        y : array-like of shape (n,)
            Labels 0/1 (`MotifClassifier`) or targets (`MotifRegressor`).

        Returns
        -------
        self
        """
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        F = self.transform(X)
        y = np.asarray(y)
        if y.shape != (F.shape[0],):
            raise InputError(f"y has shape {y.shape}, need ({F.shape[0]},)")
        self.pipeline_ = make_pipeline(StandardScaler(), self._linear()).fit(F, y)
        self.n_motifs_ = F.shape[1]
        return self

    @property
    def coef_(self) -> np.ndarray:
        """Coefficient of each motif's best site score (per bit, unstandardised)."""
        check_is_fitted(self)
        scaler, linear = self.pipeline_[0], self.pipeline_[-1]
        return np.ravel(linear.coef_) / scaler.scale_

    def _applied(self, method: str, X: ArrayLike) -> np.ndarray:
        """The fitted pipeline's ``method`` on the motif features of X."""
        check_is_fitted(self)
        return getattr(self.pipeline_, method)(self.transform(X))

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Predicted labels (`MotifClassifier`) or targets (`MotifRegressor`).

        Parameters
        ----------
        X : array-like
            Sequences, as `transform` takes them.

        Returns
        -------
        numpy.ndarray, shape (n,)
        """
        return self._applied("predict", X)

    # ------------------------------------------------------------------ files
    def save(self, path: str | Path) -> None:
        """Write the fitted model to an ``.npz`` file (no pickle), atomically.

        Parameters
        ----------
        path : str or pathlib.Path
            The file to write (replaced if it exists).
        """
        from ..io.files import write_npz

        check_is_fitted(self)
        motifs = list(self.motifs)
        scaler, linear = self.pipeline_[0], self.pipeline_[-1]
        write_npz(
            path,
            _FORMAT,
            _VERSION,
            {
                "kind": np.str_(type(self).__name__),
                "pwms": np.concatenate([m.pwm for m in motifs]),
                "widths": np.array([m.length for m in motifs], dtype=np.int64),
                "names": np.array([m.name for m in motifs]),
                "positions": np.array([m.position for m in motifs]),
                "spreads": np.array([m.spread for m in motifs]),
                "n_sites": np.array([m.n_sites for m in motifs], dtype=np.int64),
                "both_strands": np.array(self._strands()),
                "background": self._background(),
                "mean": scaler.mean_,
                "scale": scaler.scale_,
                "coef": np.ravel(linear.coef_),
                "intercept": np.float64(np.ravel(linear.intercept_)[0]),
                "classes": getattr(linear, "classes_", np.array([])),
            },
        )


def load_motif_model(path: str | Path) -> MotifClassifier | MotifRegressor:
    """Read a motif model written by ``save``.

    Parameters
    ----------
    path : str or pathlib.Path
        A file written by `MotifClassifier.save` or `MotifRegressor.save`.

    Returns
    -------
    MotifClassifier or MotifRegressor
        Fitted; it scores as the saved one did.
    """
    from sklearn.linear_model import LinearRegression, LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from ..io.files import read_npz

    a = read_npz(path, _FORMAT, _VERSION, "poimkit motif model")
    kind = {"MotifClassifier": MotifClassifier, "MotifRegressor": MotifRegressor}
    if str(a["kind"]) not in kind:
        raise InputError(f"{path}: unknown motif model kind {str(a['kind'])!r}")
    motifs, at = [], 0
    for i, width in enumerate(a["widths"].tolist()):
        motif = Motif(
            a["pwms"][at : at + width],
            float(a["positions"][i]),
            float(a["spreads"][i]),
            name=str(a["names"][i]),
            n_sites=int(a["n_sites"][i]),
        )
        motifs.append(motif)
        at += width
    model = kind[str(a["kind"])](
        motifs,
        both_strands=[bool(b) for b in a["both_strands"]],
        background=a["background"],
    )
    scaler = StandardScaler()
    scaler.mean_, scaler.scale_ = a["mean"], a["scale"]
    scaler.var_ = scaler.scale_**2
    scaler.n_features_in_ = a["mean"].size
    if model.__class__ is MotifClassifier:
        linear = LogisticRegression()
        linear.classes_ = a["classes"]
        linear.coef_ = a["coef"][None, :]
        linear.intercept_ = np.array([float(a["intercept"])])
    else:
        linear = LinearRegression()
        linear.coef_ = a["coef"]
        linear.intercept_ = float(a["intercept"])
    linear.n_features_in_ = a["mean"].size
    model.pipeline_ = make_pipeline(scaler, linear)
    model.n_motifs_ = len(motifs)
    return model


class MotifClassifier(ClassifierMixin, _MotifModelBase):
    """Logistic regression on the motifs' best site scores (module notes).

    Parameters
    ----------
    motifs : sequence of Motif
        E.g. from `poimkit.extract_motifs`.
    both_strands : sequence of bool, optional
        Per motif, read its reverse complement too; default
        `reads_both_strands` of each.
    background : array-like of shape (4,), optional
        Background letters of the log-odds; default uniform.
    cv : int
        Folds of the inner cross-validation choosing the penalty (ROC AUC).
    random_state : int or None
        Seed of those folds.

    Examples
    --------
    >>> from poimkit.datasets import PlantedMotif, make_motif_data
    >>> X, y = make_motif_data(100, 100, 30, [PlantedMotif("GATTACA", 10)],
    ...                        random_state=0)
    >>> motif = Motif(np.eye(4)[[2, 0, 3, 3, 0, 1, 0]], 10.0, 0.5, n_sites=100)
    >>> model = MotifClassifier([motif]).fit(X, y)
    >>> bool(model.score(X, y) > 0.9)
    True
    """

    def _linear(self):
        from sklearn.linear_model import LogisticRegressionCV
        from sklearn.model_selection import StratifiedKFold

        folds = StratifiedKFold(self.cv, shuffle=True, random_state=self.random_state)
        # scikit-learn >= 1.8 asks for these two (plain L2, today's attributes)
        newer = {"l1_ratios": (0.0,), "use_legacy_attributes": False}
        accepted = inspect.signature(LogisticRegressionCV).parameters
        return LogisticRegressionCV(
            Cs=N_PENALTIES,
            cv=folds,
            scoring="roc_auc",
            **{k: v for k, v in newer.items() if k in accepted},
        )

    @property
    def classes_(self) -> np.ndarray:
        """The labels, as the logistic regression saw them."""
        check_is_fitted(self)
        return self.pipeline_[-1].classes_

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """g(x): the linear score of the motif features (log-odds of class 1).

        Parameters
        ----------
        X : array-like
            Sequences, as `transform` takes them.

        Returns
        -------
        numpy.ndarray of float64, shape (n,)
        """
        return self._applied("decision_function", X)

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Class probabilities, shape (n, 2).

        Parameters
        ----------
        X : array-like
            Sequences, as `transform` takes them.

        Returns
        -------
        numpy.ndarray of float64
        """
        return self._applied("predict_proba", X)


class MotifRegressor(RegressorMixin, _MotifModelBase):
    """Ridge regression on the motifs' best site scores (module notes).

    Parameters
    ----------
    motifs : sequence of Motif
        E.g. from `poimkit.extract_motifs` with targets.
    both_strands : sequence of bool, optional
        Per motif, read its reverse complement too; default
        `reads_both_strands` of each.
    background : array-like of shape (4,), optional
        Background letters of the log-odds; default uniform.
    cv : int
        Folds of the inner cross-validation choosing the penalty.
    random_state : int or None
        Unused (ridge's folds are not shuffled); kept for a common signature.
    """

    def _linear(self):
        from sklearn.linear_model import RidgeCV

        return RidgeCV(alphas=np.logspace(-3, 3, N_PENALTIES), cv=self.cv)

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """g(x): the linear score of the motif features, the predicted target.

        Parameters
        ----------
        X : array-like
            Sequences, as `transform` takes them.

        Returns
        -------
        numpy.ndarray of float64, shape (n,)
        """
        return self.predict(X)
