"""Motif models: the reported motifs as a classifier or regressor of their own.

For motifs m = 1..M with PWM log-odds P_m (width w_m) and allowed placements
A_m, the feature of a sequence x is its best site score

    s_m(x) = max over a in A_m of sum_j P_m[j, x_{a+j}],

(a ``counted`` motif's feature is instead its number of sites,
`poimkit.motifs.features.site_count`), and the model is
g(x) = c_0 + sum_m c_m s_m(x): logistic for classes (`MotifClassifier`),
ridge for targets (`MotifRegressor`), the penalty chosen by an inner
cross-validation (scikit-learn's ``LogisticRegressionCV`` and ``RidgeCV``)
on standardised features. Where a motif may lie, on which
strands, and its log-odds are `poimkit.motifs.features`'
(``../shared/DESIGN.md``, "Motif model").

The PWMs are refined on the training sequences by one number: the share of
background letters mixed into every column (``smoothing``), chosen among
`SMOOTHING` by the same inner cross-validation. A PWM counted from exact
k-mer sites is sharper than the factor's real sites (one mismatch costs
about 10 bits with 1,000 sites); mixing softens every column alike, so a
degenerate site still scores above chance windows. One shared number, not
letters fitted discriminatively: it cannot overfit the few hundred sites a
fold holds, and it keeps each motif the PWM the report shows.

The inner CV also chooses the feature's shape: the best score itself, or the
chance that the best window is a site (`site_probability`: a soft
threshold at a share of the motif's best possible score, among
`THRESHOLDS`). A target that a site shifts by a fixed amount follows the
latter: a linear model of the raw score reaches a Pearson correlation of
0.76 on the planted regression set where the site chance reaches 0.85.

It also chooses how wide a positional motif's window is: its spread as
found, or narrowed (`NARROWING`). A discovered motif's spread counts chance
sites far from its place: on the planted regression set the two motifs came
with spreads of 9.8 and 5.4 letters for a true 2, and the motif model's
Pearson correlation rose from 0.786 to 0.835 with spreads of 2.5.

The inner CV also chooses where a position-free motif is read in sequences
of one length: anywhere, or where its sites lie (`localised`: their mean
start +- `SPREADS` SDs). A gkm model has no positions, yet in aligned
sequences its motif's sites may all sit at one place; reading the motif only
there leaves the chance windows elsewhere out.

A stack (`poimkit.motifs.stacked`) adds another model's score as a first
feature: ``fit(X, y, scores=...)``.

A classifier's probabilities are a Platt scaling of its score fitted on the
held-out scores of its inner folds at the chosen penalty (``calibration_``,
`poimkit.svm.calibration`): the logistic model's own log-odds come from the
sequences its motifs were found in, and are overconfident. Files are
`poimkit.motifs.model_file`'s.

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

from ..contract import SequenceModel
from ..errors import InputError
from ..param_docs import fill_doc, parameters_from
from .features import (
    best_possible,
    localised,
    motif_features,
    narrowed,
    reads_both_strands,
    site_probability,
)
from .motif import Motif

#: penalties tried by the inner cross-validation
N_PENALTIES = 10
#: factors of a positional motif's spread the inner CV also tries: a
#: discovered motif's spread counts its chance sites too, so its window is wide
NARROWING = (0.5, 0.25)
#: the penalty (C of the logistic model; 1 / alpha of ridge) at which the
#: smoothing, shape and placement are compared
SCREENING_PENALTY = 1.0
#: shares of background letters mixed into the PWMs, chosen by the inner CV
SMOOTHING = (0.0, 0.05, 0.15, 0.3)
#: site thresholds, as shares of each motif's best possible score, chosen by
#: the inner CV; None: the best score itself is the feature
THRESHOLDS = (None, 0.4, 0.6)


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


#: a Parameters section of the sequences scored and a stack's other scores
_ON_SEQUENCES = parameters_from(
    {
        "X": "X : array-like\n    Sequences, as `transform` takes them.",
        "scores": "scores : array-like of shape (n,), optional\n"
        "    A stack's other scores (`transform`).",
    }
)("X", "scores")

#: the docs of the parameters both motif models take (`fill_doc`)
PARAMETERS = {
    "features": """
both_strands : sequence of bool, optional
    Per motif, read its reverse complement too; default
    `reads_both_strands` of each.
background : array-like of shape (4,), optional
    Background letters of the log-odds; default uniform.
smoothing : float, optional
    Share of background letters mixed into the PWMs; None: chosen among
    `SMOOTHING` by the inner cross-validation (``smoothing_``).
threshold : float or "score", optional
    The features: "score", each motif's best site score; a float in
    (0, 1), the site chance with its threshold at that share of the
    motif's best possible score (`site_probability`); None: chosen among
    `THRESHOLDS` by the inner cross-validation (``threshold_``, None for
    "score").
""",
}


class _MotifModelBase(SequenceModel, BaseEstimator):
    """What `MotifClassifier` and `MotifRegressor` share."""

    #: the score is a sum of the motifs' terms (`terms`): effects by motif
    names_terms = True
    recorded_params = ("l",)
    #: fitted with a model's scores as a feature (a stack's motif part)
    stacked_: bool = False

    def __init__(
        self,
        motifs: Sequence[Motif] = (),
        *,
        both_strands: Sequence[bool] | None = None,
        background: ArrayLike | None = None,
        smoothing: float | None = None,
        threshold: float | str | None = None,
        cv: int = 5,
        random_state: int | None = 0,
    ):
        self.motifs = motifs
        self.both_strands = both_strands
        self.background = background
        self.smoothing = smoothing
        self.threshold = threshold
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

    def _thresholds(self) -> tuple[float | None, ...]:
        """The feature shapes the inner CV chooses among (or the one given)."""
        if self.threshold is None:
            return THRESHOLDS
        if self.threshold == "score":
            return (None,)
        if not 0.0 < float(self.threshold) < 1.0:
            raise InputError(
                f"threshold must be 'score' or lie in (0, 1), got {self.threshold}"
            )
        return (float(self.threshold),)

    def _candidates(self) -> tuple[float, ...]:
        """The smoothing values the inner CV chooses among (or the one given)."""
        if self.smoothing is None:
            return SMOOTHING
        if not 0.0 <= float(self.smoothing) < 1.0:
            raise InputError(f"smoothing must lie in [0, 1), got {self.smoothing}")
        return (float(self.smoothing),)

    def _placed(self, codes: np.ndarray) -> list[list[Motif]]:
        """The placements the inner CV compares (`NARROWING`, `localised`).

        The motifs as given; in sequences of one length also with position-free
        ones `localised`; and each with positional motifs' windows narrowed.
        """
        from .scan import record_lengths

        given = list(self.motifs)
        bases = [given]
        lengths = record_lengths(codes)
        if lengths.min() == lengths.max():
            placed = [localised(m, int(lengths[0])) or m for m in given]
            if any(p is not m for p, m in zip(placed, given, strict=True)):
                bases.append(placed)
        out = []
        for base in bases:
            out.append(base)
            if any(np.isfinite(m.position) for m in base):
                out.extend([narrowed(m, f) for m in base] for f in NARROWING)
        return out

    def _best_scores(self, codes: np.ndarray, smoothing: float, motifs=None):
        """Best window score of each motif in each sequence, shape (n, M)."""
        motifs = list(self.motifs_ if motifs is None else motifs)
        if not motifs:
            raise InputError("a motif model needs at least one motif")
        return motif_features(
            codes, motifs, self._background(), self._strands(), smoothing
        )

    def _shaped(self, best: np.ndarray, smoothing, threshold, scores, motifs=None):
        """The features: best scores or site chances, after ``scores`` if given."""
        F = best
        if threshold is not None:
            motifs = list(self.motifs_ if motifs is None else motifs)
            top = best_possible(motifs, self._background(), smoothing)
            counted = np.array([m.counted for m in motifs], dtype=bool)
            F = np.where(counted, best, site_probability(best, threshold * top))
        if scores is None:
            return F
        scores = np.asarray(scores, dtype=np.float64).reshape(-1, 1)
        if scores.shape[0] != F.shape[0]:
            raise InputError(
                f"scores has {scores.shape[0]} rows for {F.shape[0]} sequences"
            )
        return np.hstack([scores, F])

    def _codes(self, X) -> np.ndarray:
        from ..kernels.gkm import as_sequences
        from .scan import padded

        return padded(as_sequences(X, "X"))

    def transform(self, X: ArrayLike, scores: ArrayLike | None = None) -> np.ndarray:
        """The motif features of X (`motif_features`), shape (n, M).

        Parameters
        ----------
        X : array-like
            Integer-coded sequences (n, L), or a list of code arrays or DNA
            strings of any lengths.
        scores : array-like of shape (n,), optional
            Another model's scores, the first column of a stack (required
            if the model was fitted with them).

        Returns
        -------
        numpy.ndarray of float64
            Shape (n, M), or (n, M + 1) with ``scores`` first.
        """
        check_is_fitted(self)
        if self.stacked_ != (scores is not None):
            raise InputError(
                "this model was fitted "
                + ("with" if self.stacked_ else "without")
                + " another model's scores; give them "
                + ("too" if self.stacked_ else "not")
            )
        return self._features(self._codes(X), scores)

    def _features(self, codes: np.ndarray, scores=None) -> np.ndarray:
        """The fitted model's features of letter codes."""
        best = self._best_scores(codes, self.smoothing_)
        return self._shaped(best, self.smoothing_, self.threshold_, scores)

    def fit(self, X: ArrayLike, y: ArrayLike, scores: ArrayLike | None = None):
        """Fit the motifs' coefficients, the penalty, smoothing, shape and placement.

        Every smoothing in `SMOOTHING` (or the one given) and feature shape in
        `THRESHOLDS`, with the motifs as given, in sequences of one length
        with position-free motifs `localised`, and with positional motifs'
        windows narrowed (`NARROWING`), is tried; the one with
        the highest inner cross-validated figure (ROC AUC for classes, R² for
        targets; at one moderate penalty, `SCREENING_PENALTY`, which barely
        matters for a few standardised features) is kept (``smoothing_``,
        ``threshold_``, ``motifs_``, ``inner_score_``). Its penalty is then
        chosen by the inner CV of ``LogisticRegressionCV`` or ``RidgeCV``.

        Parameters
        ----------
        X : array-like
            Sequences, as `transform` takes them.
        y : array-like of shape (n,)
            Labels 0/1 (`MotifClassifier`) or targets (`MotifRegressor`).
        scores : array-like of shape (n,), optional
            Another model's out-of-fold scores of X: a stack, whose first
            feature they are.

        Returns
        -------
        self
        """
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        codes = self._codes(X)
        y = np.asarray(y)
        if y.shape != (codes.shape[0],):
            raise InputError(f"y has shape {y.shape}, need ({codes.shape[0]},)")
        if not list(self.motifs):
            raise InputError("a motif model needs at least one motif")
        best = None
        folds = list(self._folds().split(codes, y))
        for motifs in self._placed(codes):
            for smoothing in self._candidates():
                raw = self._best_scores(codes, smoothing, motifs)
                for threshold in self._thresholds():
                    F = self._shaped(raw, smoothing, threshold, scores, motifs)
                    figure = self._screened(F, y, folds)
                    if best is None or figure > best[0]:
                        best = (figure, smoothing, threshold, motifs, F)
        self.inner_score_, self.smoothing_, self.threshold_, self.motifs_, F = best
        self.pipeline_ = make_pipeline(StandardScaler(), self._linear()).fit(F, y)
        self._calibrate(F, y, folds)
        self.stacked_ = scores is not None
        self.n_motifs_ = len(self.motifs_)
        self.length_ = int(codes.shape[1])  # the longest training sequence
        return self

    @property
    def coef_(self) -> np.ndarray:
        """Coefficient of each feature per unit (bit of best site score).

        A stack's first coefficient is that of the other model's score.
        """
        check_is_fitted(self)
        scaler, linear = self.pipeline_[0], self.pipeline_[-1]
        return np.ravel(linear.coef_) / scaler.scale_

    def _calibrate(self, F: np.ndarray, y: np.ndarray, folds: list) -> None:
        """A classifier's Platt scaling of held-out scores (`MotifClassifier`)."""

    def _screened(self, F: np.ndarray, y: np.ndarray, folds: list) -> float:
        """Mean held-out figure of features F at `SCREENING_PENALTY`."""
        from sklearn.base import is_classifier
        from sklearn.metrics import r2_score, roc_auc_score
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        figures = []
        for train, test in folds:
            model = make_pipeline(StandardScaler(), self._screen())
            model.fit(F[train], y[train])
            if is_classifier(self):
                figures.append(roc_auc_score(y[test], model.decision_function(F[test])))
            else:
                figures.append(r2_score(y[test], model.predict(F[test])))
        return float(np.mean(figures))

    def _applied(self, method: str, X: ArrayLike, scores=None) -> np.ndarray:
        """The fitted pipeline's ``method`` on the motif features of X."""
        check_is_fitted(self)
        return getattr(self.pipeline_, method)(self.transform(X, scores))

    @_ON_SEQUENCES
    def predict(self, X: ArrayLike, scores: ArrayLike | None = None) -> np.ndarray:
        """Predicted labels (`MotifClassifier`) or targets (`MotifRegressor`).

        %(parameters)s

        Returns
        -------
        numpy.ndarray, shape (n,)
        """
        return self._applied("predict", X, scores)

    # ------------------------------------------------------------- as a model
    @property
    def position_free(self) -> bool:
        """True if no motif is positional: sequences of any lengths are scored."""
        return bool(
            all(np.isnan(m.position) for m in getattr(self, "motifs_", self.motifs))
        )

    @property
    def l(self) -> int:  # noqa: E743 (the field's name for a model's word length)
        """The widest motif: the shortest sequence the model can score."""
        return int(max(m.length for m in self.motifs))

    def describe(self) -> str:
        """One line naming the model, for messages."""
        kind = "stack of a model and" if self.stacked_ else "of"
        return f"{type(self).__name__} ({kind} {len(self.motifs)} motifs)"

    @property
    def term_names(self) -> list[str]:
        """The names of `terms`' columns: the motifs'."""
        return [m.name for m in self.motifs_]

    def terms(self, X: ArrayLike) -> np.ndarray:
        """Each motif's term ``c_m s_m(x)`` of the score, shape (n, M).

        The score is these terms' sum plus a constant (and a stack's other
        term), so a change of score splits exactly into the motifs' changes.

        Parameters
        ----------
        X : array-like
            Sequences, as `transform` takes them.

        Returns
        -------
        numpy.ndarray of float64
        """
        check_is_fitted(self)
        F = self._features(self._codes(X))
        return F * self.coef_[int(self.stacked_) :]

    # ------------------------------------------------------------------ files
    def save(self, path: str | Path, **extra: np.ndarray) -> None:
        """Write the fitted model to an ``.npz`` file (no pickle), atomically.

        Parameters
        ----------
        path : str or pathlib.Path
            The file to write (replaced if it exists).
        **extra : numpy.ndarray
            More arrays to store (a stack's reference to its model).
        """
        from .model_file import write_motif_model

        check_is_fitted(self)
        write_motif_model(self, path, **extra)


@fill_doc(PARAMETERS)
class MotifClassifier(ClassifierMixin, _MotifModelBase):
    """Logistic regression on the motifs' best site scores (module notes).

    Parameters
    ----------
    motifs : sequence of Motif
        E.g. from `poimkit.extract_motifs`.
    %(features)s
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

    def _folds(self):
        from sklearn.model_selection import StratifiedKFold

        return StratifiedKFold(self.cv, shuffle=True, random_state=self.random_state)

    def _screen(self):
        from sklearn.linear_model import LogisticRegression

        return LogisticRegression(C=SCREENING_PENALTY, solver="newton-cholesky")

    def _linear(self):
        from sklearn.linear_model import LogisticRegressionCV

        # scikit-learn >= 1.8 asks for these two (plain L2, today's attributes)
        newer = {"l1_ratios": (0.0,), "use_legacy_attributes": False}
        accepted = inspect.signature(LogisticRegressionCV).parameters
        return LogisticRegressionCV(
            Cs=N_PENALTIES,
            cv=self._folds(),
            scoring="roc_auc",
            solver="newton-cholesky",  # exact and fast for a few features
            **{k: v for k, v in newer.items() if k in accepted},
        )

    #: Platt scaling of its scores (a file written before calibration: the
    #: identity, its scores being the logistic model's log-odds)
    calibration_: tuple[float, float] = (1.0, 0.0)

    def _calibrate(self, F: np.ndarray, y: np.ndarray, folds: list) -> None:
        """Platt scaling of the inner folds' held-out scores at the chosen penalty.

        The logistic model's own log-odds come from a fit on the sequences
        its motifs were found in: overconfident, and on another scale in
        every outer fold of a run.
        """
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        from ..svm.calibration import platt

        C = float(np.ravel(self.pipeline_[-1].C_)[0])
        held = np.empty(y.size)
        for train, test in folds:
            linear = LogisticRegression(C=C, solver="newton-cholesky")
            model = make_pipeline(StandardScaler(), linear).fit(F[train], y[train])
            held[test] = model.decision_function(F[test])
        self.calibration_ = platt(held, y == self.classes_[1])

    @property
    def classes_(self) -> np.ndarray:
        """The labels, as the logistic regression saw them."""
        check_is_fitted(self)
        return self.pipeline_[-1].classes_

    @_ON_SEQUENCES
    def decision_function(
        self, X: ArrayLike, scores: ArrayLike | None = None
    ) -> np.ndarray:
        """g(x): the linear score of the motif features (log-odds of class 1).

        %(parameters)s

        Returns
        -------
        numpy.ndarray of float64, shape (n,)
        """
        return self._applied("decision_function", X, scores)

    @_ON_SEQUENCES
    def predict_proba(
        self, X: ArrayLike, scores: ArrayLike | None = None
    ) -> np.ndarray:
        """Class probabilities by the Platt scaling of g(x), shape (n, 2).

        %(parameters)s

        Returns
        -------
        numpy.ndarray of float64
        """
        from ..svm.calibration import probability

        p = probability(self.decision_function(X, scores), self.calibration_)
        return np.column_stack([1.0 - p, p])

    @_ON_SEQUENCES
    def predict(self, X: ArrayLike, scores: ArrayLike | None = None) -> np.ndarray:
        """The class of probability at least 1/2 (`predict_proba`), shape (n,).

        %(parameters)s

        Returns
        -------
        numpy.ndarray
        """
        from ..svm.calibration import labelled_positive

        g = self.decision_function(X, scores)
        return self.classes_[labelled_positive(g, self.calibration_).astype(np.intp)]


@fill_doc(PARAMETERS)
class MotifRegressor(RegressorMixin, _MotifModelBase):
    """Ridge regression on the motifs' best site scores (module notes).

    Parameters
    ----------
    motifs : sequence of Motif
        E.g. from `poimkit.extract_motifs` with targets.
    %(features)s
    cv : int
        Folds of the inner cross-validation choosing the penalty.
    random_state : int or None
        Seed of the folds comparing smoothing, shape and placement (ridge's
        own penalty folds are not shuffled).
    """

    def _folds(self):
        from sklearn.model_selection import KFold

        return KFold(self.cv, shuffle=True, random_state=self.random_state)

    def _screen(self):
        from sklearn.linear_model import Ridge

        return Ridge(alpha=1.0 / SCREENING_PENALTY)

    def _linear(self):
        from sklearn.linear_model import RidgeCV

        return RidgeCV(alphas=np.logspace(-3, 3, N_PENALTIES), cv=self.cv)

    @_ON_SEQUENCES
    def decision_function(
        self, X: ArrayLike, scores: ArrayLike | None = None
    ) -> np.ndarray:
        """g(x): the linear score of the motif features, the predicted target.

        %(parameters)s

        Returns
        -------
        numpy.ndarray of float64, shape (n,)
        """
        return self.predict(X, scores)


def load_motif_model(path: str | Path) -> MotifClassifier | MotifRegressor:
    """Read a motif model written by ``save`` (`poimkit.motifs.model_file`).

    Parameters
    ----------
    path : str or pathlib.Path
        A file written by `MotifClassifier.save` or `MotifRegressor.save`.

    Returns
    -------
    MotifClassifier or MotifRegressor
        Fitted; it scores as the saved one did.
    """
    from .model_file import read_motif_model

    kind, params, fitted = read_motif_model(path)
    model = {"MotifClassifier": MotifClassifier, "MotifRegressor": MotifRegressor}[
        kind
    ](**params)
    for name, value in fitted.items():
        setattr(model, name, value)
    return model
