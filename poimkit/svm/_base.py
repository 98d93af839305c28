"""What the poimkit estimators share: parameters, prediction and model files.

`KernelModelBase` holds what every estimator has (parameters, ``.npz`` model
files); `WDClassifierBase` adds the two classes and ``predict`` of the
classifiers, `KernelRegressorBase` the ``predict`` of the regressors
(`WDKernelSVR`, `GkmSVR`: the same kernels with the epsilon-insensitive loss,
so the same exact explicit weights). `WDKernelSVC` (a kernel expansion over
support vectors, trained on the kernel matrix), `WDLinearSVC` (a weight
vector over the explicit, partly hashed feature map, trained in feature
space) and `GkmSVC` (gapped k-mers) score sequences differently but write
the same ``.npz`` model files (no pickle) whose ``format`` names the
estimator: each class reads only its own files and `poimkit.load_model`
opens any. Their input checks are in `poimkit._validation`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from .._threads import check_threads
from .._validation import (
    as_codes,
    check_continuous_target,
    check_int,
    check_length,
    check_real,
    require_target,
)
from ..alphabet import MAX_KMER_LENGTH
from ..contract import SequenceModel
from ..errors import InputError
from ..io import read_npz, write_npz


def optional_float(value: object) -> float | None:
    """A saved optional number: NaN stands for None (`save` writes None so).

    Parameters
    ----------
    value : object
        The saved scalar (a 0-d array or a number).

    Returns
    -------
    float or None

    Examples
    --------
    >>> optional_float(np.nan) is None, optional_float(np.float64(0.5))
    (True, 0.5)
    """
    value = float(value)
    return None if np.isnan(value) else value


def optional_int(value: object) -> int | None:
    """A saved optional integer: NaN stands for None (`save` writes None so).

    Parameters
    ----------
    value : object
        As in `optional_float`.

    Returns
    -------
    int or None
        None for NaN.

    Examples
    --------
    >>> optional_int(np.float64(3))
    3
    """
    value = optional_float(value)
    return None if value is None else int(value)


@dataclass(eq=False, repr=False, kw_only=True)
class WDParams:
    """The parameters of every WD / WDS model, kernel or linear: dataclass fields.

    `poimkit.svm.wd.WDExpansion` and `poimkit.svm.linear.estimator.WDLinearParams`
    add their family's; their estimators are dataclasses too (``eq=False``:
    estimators compare and hash by identity; ``repr=False``: scikit-learn's
    repr; ``kw_only``: scikit-learn's keyword arguments), so ``__init__`` only
    stores the parameters, as scikit-learn asks.

    Attributes
    ----------
    degree, shift, C, normalize, n_threads
        As in `poimkit.WDKernelSVC`.
    """

    degree: int = 20
    shift: int = 0
    C: float = 1.0
    normalize: bool = True
    n_threads: int | None = None

    #: what `KernelModelBase.save` writes of them (the families add theirs)
    _saved_params = {"degree": int, "shift": int, "C": float, "normalize": bool}

    def _check_wd_params(self) -> None:
        """Check the parameters of the WD / WDS models: degree, shift, C, threads."""
        check_int(self.degree, "degree", 1)
        check_int(self.shift, "shift", 0)
        check_real(self.C, "C", 0)
        check_threads(self.n_threads)


class KernelModelBase(SequenceModel, BaseEstimator):
    """Base of the poimkit estimators (WD / WDS and gapped k-mer SVMs and SVRs).

    Subclasses declare their scikit-learn parameters as dataclass fields (see
    `WDParams`), and define ``_check_params`` (called by ``fit``), ``fit``, a score
    (``decision_function`` or ``predict``), ``explicit_weights``, ``_model_format``,
    ``_saved_params`` (parameter name -> type, written to and read from files;
    None is written as NaN and read back by `optional_float` / `optional_int`;
    ``_saved_defaults`` gives the value of parameters that older files lack),
    and the pair ``_fitted_arrays()`` / ``_restore(arrays)`` for the learned
    state. Every fitted model has ``intercept_``, ``kernel_scale_``,
    ``length_`` and ``n_features_in_``; classifiers also ``classes_``
    (written and read by ``_label_arrays`` / ``_restore_labels``).
    """

    _model_format: ClassVar[str]
    _format_version: ClassVar[int] = 1
    #: older format versions that `load` still reads (with ``_saved_defaults``)
    _old_versions: ClassVar[tuple[int, ...]] = ()
    _saved_params: ClassVar[dict[str, type]]
    _saved_defaults: ClassVar[dict[str, object]] = {}
    #: the additive-model contract (`poimkit.additive`): positional k-mer
    #: weights, unless a subclass declares otherwise
    decomposition: ClassVar[str] = "positional"
    #: the shortest record it scores (the gapped k-mer models: their l)
    l: int = 1  # noqa: E741
    #: the solver its fit chose, where it chooses (a fitted `GkmSVC`)
    solver_: str | None = None
    #: the exact k-mer table outgrew the linear solver's budget (`WDLinearSVC`)
    hashed_by_budget_: bool = False

    def size(self) -> dict[str, int | None]:
        """The number of support vectors, for a run's summary.

        Returns
        -------
        dict
            ``n_support_vectors``.
        """
        return {"n_support_vectors": int(self.n_support_.sum())}

    def _gram_pays(self, n: int, letters: int) -> bool:
        """Whether one kernel matrix of ``n`` records pays (``shares_gram``)."""
        return True

    def _fitted_codes(self, X: ArrayLike) -> np.ndarray:
        """Codes of ``X`` for this fitted model: sequences of its training length."""
        check_is_fitted(self)
        return check_length(
            as_codes(X), self.length_, "the model was trained on length"
        )

    def _check_kmer_length(self) -> None:
        """Explicit weights index k-mers in 64 bits."""
        if min(self.degree, self.length_) > MAX_KMER_LENGTH:
            raise InputError(
                f"explicit weights need k-mers of at most {MAX_KMER_LENGTH} letters "
                f"(64-bit indices); this model has degree {self.degree} on length "
                f"{self.length_}: train with degree <= {MAX_KMER_LENGTH}"
            )

    # ------------------------------------------------------------------ files
    def save(self, path: str | Path) -> None:
        """Write the fitted model to an ``.npz`` file (no pickle), atomically.

        Parameters
        ----------
        path : str or pathlib.Path
            The file to write (replaced if it exists).
        """
        check_is_fitted(self)
        arrays = {
            name: np.asarray(
                np.nan if getattr(self, name) is None else getattr(self, name)
            )
            for name in self._saved_params
        }
        arrays.update(
            **self._label_arrays(),
            intercept=np.float64(self.intercept_),
            kernel_scale=np.float64(self.kernel_scale_),
            length=np.int64(self.length_),
            **self._fitted_arrays(),
        )
        write_npz(path, self._model_format, self._format_version, arrays)

    @classmethod
    def load(cls, path: str | Path) -> KernelModelBase:
        """Read a model written by `save` of this class.

        Parameters
        ----------
        path : str or pathlib.Path
            A file written by ``save`` of this class.

        Returns
        -------
        KernelModelBase
            A fitted model of this class.

        Raises
        ------
        InputError
            If the file is missing, not a model of this class, truncated or
            corrupt, or written in a format version this poimkit cannot read.
        """
        path = str(path)
        versions = (cls._format_version, *cls._old_versions)
        arrays = read_npz(path, cls._model_format, versions, "poimkit model")
        try:
            saved = {**cls._saved_defaults, **arrays}
            model = cls(
                **{name: kind(saved[name]) for name, kind in cls._saved_params.items()}
            )
            model._restore_labels(arrays)
            model.intercept_ = float(arrays["intercept"])
            model.kernel_scale_ = float(arrays["kernel_scale"])
            model.length_ = model.n_features_in_ = int(arrays["length"])
            model._restore(arrays)
        except (KeyError, InputError, ValueError, TypeError) as exc:
            raise InputError(
                f"model file is incomplete or corrupt: {exc}", path=path
            ) from None
        if (
            not model._labels_consistent()
            or not np.isfinite(model.intercept_)
            or not model.kernel_scale_ > 0
        ):
            raise InputError("model file has inconsistent arrays", path=path)
        return model

    def _label_arrays(self) -> dict[str, np.ndarray]:
        """The fitted labels to save (none for a regressor)."""
        return {}

    def _restore_labels(self, arrays) -> None:
        """Read what `_label_arrays` wrote."""

    def _labels_consistent(self) -> bool:
        """Whether the labels read by `_restore_labels` make sense."""
        return True


class WDClassifierBase(ClassifierMixin, KernelModelBase):
    """Base of the poimkit classifiers: two classes, labels and probabilities.

    Every fitted classifier has ``classes_`` besides what `KernelModelBase`
    lists, and ``calibration_``: None, or the Platt scaling ``(a, b)`` fitted
    on held-out scores (`calibrate`, `poimkit.svm.calibration`), saved with
    the model. A calibrated classifier's label is the class of probability at
    least 1/2; an uncalibrated one's the sign of its score.

    ``training_offsets_``, also saved: the letters its training windows were
    moved by along the genome (``(0,)``: the windows as cut; a WD model of
    ``poimkit run --bed`` trains on moved copies,
    `poimkit.run.data.MovedCopies`). ``poimkit variants --bed`` scores a
    variant in a peak at the same placements (`poimkit.variants.placement`).
    """

    #: Platt scaling (a, b), or None (set by `calibrate`; an instance attribute)
    calibration_: tuple[float, float] | None = None
    #: letters the training windows were moved by (an instance attribute)
    training_offsets_: tuple[int, ...] = (0,)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def calibrate(self, scores: ArrayLike, y: ArrayLike) -> WDClassifierBase:
        """Fit Platt scaling on held-out scores of models like this one.

        Parameters
        ----------
        scores : array-like of float, shape (n,)
            Out-of-fold decision values of the same kind of model (the same
            parameters, trained without the scored sequences).
        y : array-like, shape (n,)
            Their labels, from ``classes_``.

        Returns
        -------
        self
        """
        from .calibration import platt

        check_is_fitted(self)
        y = np.asarray(y)
        unknown = set(np.unique(y).tolist()) - set(np.asarray(self.classes_).tolist())
        if unknown:
            raise InputError(f"labels {sorted(unknown)} are not this model's classes")
        self.calibration_ = platt(scores, y == self.classes_[1])
        return self

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Probabilities of ``classes_`` from the Platt scaling of the score.

        Parameters
        ----------
        X : array-like of int, shape (n_samples, length), or list of str
            Sequences, as ``decision_function`` takes them.

        Returns
        -------
        numpy.ndarray of shape (n_samples, 2)

        Raises
        ------
        InputError
            For a model without a calibration (`calibrate`; ``poimkit
            train`` and ``run`` calibrate the models they save).
        """
        from .calibration import probability

        check_is_fitted(self)
        if self.calibration_ is None:
            raise InputError(
                "this model has no calibration: fit one on held-out scores with "
                "calibrate(scores, y), or train it with poimkit train/run"
            )
        p = probability(self.decision_function(X), self.calibration_)
        return np.column_stack([1.0 - p, p])

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Predicted class labels: probability at least 1/2, else the score's sign.

        Parameters
        ----------
        X : array-like of int, shape (n_samples, length), or list of str
            As `predict_proba` takes them.

        Returns
        -------
        numpy.ndarray of shape (n_samples,)
            ``classes_[1]`` where the calibrated probability is at least 1/2
            (a model with ``calibration_``), or where the score is positive.
        """
        from .calibration import labelled_positive

        check_is_fitted(self)
        positive = labelled_positive(self.decision_function(X), self.calibration_)
        return self.classes_[positive.astype(np.intp)]

    def _label_arrays(self) -> dict[str, np.ndarray]:
        classes = np.asarray(self.classes_)
        if classes.dtype.kind not in "iubfU":
            classes = classes.astype(str)
        calibration = self.calibration_ or (np.nan, np.nan)
        return {
            "classes": classes,
            "calibration": np.asarray(calibration, float),
            "training_offsets": np.asarray(self.training_offsets_, dtype=np.int64),
        }

    def _restore_labels(self, arrays) -> None:
        self.classes_ = arrays["classes"]
        calibration = arrays.get("calibration")  # files before calibration: none
        if calibration is not None and np.isfinite(calibration).all():
            self.calibration_ = (float(calibration[0]), float(calibration[1]))
        offsets = arrays.get("training_offsets")  # files before it: as cut
        if offsets is not None and offsets.size:
            self.training_offsets_ = tuple(int(o) for o in offsets)

    def _labels_consistent(self) -> bool:
        return self.classes_.shape == (2,)


class KernelRegressorBase(RegressorMixin, KernelModelBase):
    """Base of the poimkit regressors: ``predict`` is the model's score.

    Subclasses define ``_score(X)``, the kernel expansion
    ``sum_j dual_coef_[j] k(sv_j, x) + intercept_`` (with the kernel's
    normalisation), as the classifiers' ``decision_function``; scikit-learn
    regressors have no ``decision_function``.
    """

    def _training_data(
        self, X: ArrayLike, y: ArrayLike, read: Callable = as_codes
    ) -> tuple:
        """The checked parameters, then ``(read(X), y)`` with y finite real targets.

        ``y=None`` is refused before ``X`` is read (scikit-learn's message);
        ``read`` gives the sequences (`as_codes` by default), one target each.
        """
        self._check_params()
        require_target(y)
        X = read(X)
        return X, check_continuous_target(y, len(X))

    def scores(self, X: ArrayLike) -> np.ndarray:
        """The model's score: its predictions (`predict`).

        Parameters
        ----------
        X : array-like
            As in `predict`.

        Returns
        -------
        numpy.ndarray of float64, shape (n_samples,)
        """
        return np.asarray(self.predict(X), dtype=np.float64)

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Predicted targets: the model's score, an exact sum of k-mer weights.

        Parameters
        ----------
        X : array-like of int, shape (n_samples, length), or list of str
            Sequences (of the training length for the WD / WDS models, of any
            lengths of at least ``l`` for the gapped k-mer models).

        Returns
        -------
        numpy.ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        return self._score(X)
