"""What every fitted WD / WDS SVM is: a kernel expansion over support vectors.

`WDKernelSVC` (kernel matrix, scikit-learn's SVC) and `WDLinearSVC` (feature
space, for many sequences) train differently but fit the same model,

    s(x) = b + sum_j dual_coef_j k(sv_j, x) / kernel_scale,

with the WD / WDS kernel k. `WDExpansionClassifier` holds that model and gives
both estimators the same input checks, explicit weights, prediction and
``.npz`` files (no pickle; ``format`` names the estimator, so each class reads
only its own files and `poimkit.models.load_model` opens either).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted

from .alphabet import MAX_KMER_LENGTH, check_codes, encode
from .errors import InputError
from .io import read_npz, write_npz
from .weights import KmerWeights


def as_codes(X, name: str = "X") -> np.ndarray:
    """Integer codes from a code array or a list of DNA strings."""
    if hasattr(X, "toarray") or hasattr(X, "tocsr"):
        raise TypeError(
            f"{name} is a sparse matrix; sparse input is not supported: pass "
            "integer-coded sequences (poimkit.encode) or DNA strings"
        )
    if isinstance(X, str):
        raise InputError(f"{name} must be a list of sequences, not a single string")
    if isinstance(X, np.ndarray) and X.dtype.kind in "iub":
        return check_codes(X, name)
    if isinstance(X, Sequence) and len(X) and all(isinstance(s, str) for s in X):
        return encode(X)
    arr = np.asarray(X)
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise InputError(
            f"Input {name} contains NaN or infinity; it must hold letter codes"
        )
    if arr.dtype.kind == "f" and arr.size and np.all(arr == np.round(arr)):
        arr = arr.astype(np.int64)  # integer codes that travelled as floats
    if arr.dtype.kind in "US":
        return encode([str(s) for s in arr.ravel()])
    if arr.dtype.kind == "c":
        raise InputError(f"Complex data not supported: {name} must hold letter codes")
    if arr.ndim == 2 and 0 in arr.shape:
        raise InputError(
            f"{name} has 0 feature(s) (shape={arr.shape}) while a minimum of 1 is "
            "required: no sequence letters"
        )
    return check_codes(arr, name)


def check_binary_target(y, estimator: str) -> np.ndarray:
    """``y`` as an array of exactly two classes (scikit-learn's messages)."""
    if y is None:
        raise ValueError(
            "requires y to be passed, but the target y is None: give one label "
            "per sequence"
        )
    y = np.asarray(y)
    check_classification_targets(y)
    classes = np.unique(y)
    if type_of_target(y) != "binary" and classes.size > 2:
        raise ValueError(
            f"Only binary classification is supported: {estimator} needs exactly "
            f"two classes, got {classes.size}: {classes.tolist()[:5]}"
        )
    if classes.size < 2:
        raise ValueError(
            "Classifier can't train when only one class is present: y holds only "
            f"{classes.tolist()}"
        )
    return y


def check_sequences(X, y: np.ndarray) -> np.ndarray:
    """Integer codes of ``X``, one sequence per label of ``y``."""
    X = as_codes(X)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise InputError(
            f"y has shape {y.shape} but X has {X.shape[0]} sequences; y must "
            "be one label per sequence"
        )
    return X


def optional_float(value) -> float | None:
    """A saved optional number: NaN stands for None (`save` writes None so)."""
    value = float(value)
    return None if np.isnan(value) else value


def check_shift(shift: int, length: int) -> None:
    """A WDS shift must be shorter than the sequences."""
    if shift >= length:
        raise InputError(
            f"shift must be smaller than the sequence length {length}, got {shift}"
        )


class WDExpansionClassifier(ClassifierMixin, BaseEstimator):
    """Base of the WD / WDS SVMs: a fitted kernel expansion (see module doc).

    Subclasses define ``__init__`` (scikit-learn parameters), ``fit`` (ending
    with `_set_expansion`), ``decision_function``, ``_model_format`` and
    ``_saved_params`` (parameter name -> type, written to and read from files;
    None is written as NaN, read back by `optional_float`).

    Attributes set by `_set_expansion`: ``classes_``, ``support_vectors_``
    (uint8, ``(n_SV, length)``), ``dual_coef_`` (``alpha_j y_j``),
    ``intercept_``, ``kernel_scale_``, ``length_``, ``n_features_in_`` and
    ``n_support_`` (support vectors of the negative and the positive class).
    """

    _model_format: ClassVar[str]
    _format_version: ClassVar[int] = 1
    _saved_params: ClassVar[dict[str, type]]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _set_expansion(
        self,
        classes,
        support_vectors: np.ndarray,
        dual_coef: np.ndarray,
        intercept: float,
        kernel_scale: float,
        length: int,
    ) -> None:
        self.classes_ = np.asarray(classes)
        self.support_vectors_ = np.ascontiguousarray(support_vectors, dtype=np.uint8)
        self.dual_coef_ = np.ascontiguousarray(dual_coef, dtype=np.float64)
        self.intercept_ = float(intercept)
        self.kernel_scale_ = float(kernel_scale)
        self.length_ = self.n_features_in_ = int(length)
        self.n_support_ = np.array(
            [(self.dual_coef_ < 0).sum(), (self.dual_coef_ > 0).sum()]
        )
        self._weights = None

    def _check_length(self, X: np.ndarray) -> np.ndarray:
        if X.shape[1] != self.length_:
            raise InputError(
                f"X has sequences of length {X.shape[1]} but the model was trained "
                f"on length {self.length_}"
            )
        return X

    def predict(self, X) -> np.ndarray:
        """Predicted class labels (``classes_[1]`` where the score is positive)."""
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(np.intp)]

    def explicit_weights(self) -> KmerWeights:
        """The exact positional k-mer weights of the fitted model (cached).

        Returns
        -------
        KmerWeights
            ``explicit_weights().decision_function(X)`` equals
            ``decision_function(X)`` up to floating-point rounding. Its size
            grows like ``n_SV * length * degree`` entries of 16 bytes for high
            degrees (k-mers longer than about 10 are mostly unique).
        """
        check_is_fitted(self)
        if min(self.degree, self.length_) > MAX_KMER_LENGTH:
            raise InputError(
                f"explicit weights need k-mers of at most {MAX_KMER_LENGTH} letters "
                f"(64-bit indices); this model has degree {self.degree} on length "
                f"{self.length_}: train with degree <= {MAX_KMER_LENGTH}"
            )
        if getattr(self, "_weights", None) is None:
            self._weights = KmerWeights.from_support_vectors(
                self.support_vectors_,
                self.dual_coef_ / self.kernel_scale_,
                self.intercept_,
                degree=self.degree,
                shift=self.shift,
            )
        return self._weights

    # ------------------------------------------------------------------ files
    def save(self, path: str | Path) -> None:
        """Write the fitted model to an ``.npz`` file (no pickle), atomically."""
        check_is_fitted(self)
        classes = np.asarray(self.classes_)
        if classes.dtype.kind not in "iubfU":
            classes = classes.astype(str)
        arrays = {
            name: np.asarray(
                np.nan if getattr(self, name) is None else getattr(self, name)
            )
            for name in self._saved_params
        }
        arrays.update(
            classes=classes,
            support_vectors=self.support_vectors_,
            dual_coef=self.dual_coef_,
            intercept=np.float64(self.intercept_),
            kernel_scale=np.float64(self.kernel_scale_),
            length=np.int64(self.length_),
        )
        write_npz(path, self._model_format, self._format_version, arrays)

    @classmethod
    def load(cls, path: str | Path):
        """Read a model written by `save` of this class.

        Raises
        ------
        InputError
            If the file is missing, not a model of this class, truncated or
            corrupt, or written in a format version this poimkit cannot read.
        """
        path = str(path)
        arrays = read_npz(path, cls._model_format, cls._format_version)
        try:
            model = cls(
                **{name: kind(arrays[name]) for name, kind in cls._saved_params.items()}
            )
            model._set_expansion(
                arrays["classes"],
                check_codes(arrays["support_vectors"]),
                np.asarray(arrays["dual_coef"], dtype=np.float64),
                float(arrays["intercept"]),
                float(arrays["kernel_scale"]),
                int(arrays["length"]),
            )
        except (KeyError, InputError, ValueError, TypeError) as exc:
            raise InputError(
                f"model file is incomplete or corrupt: {exc}", path=path
            ) from None
        if (
            model.classes_.shape != (2,)
            or model.dual_coef_.shape != (model.support_vectors_.shape[0],)
            or model.support_vectors_.shape[1] != model.length_
            or not np.isfinite(model.dual_coef_).all()
            or not model.kernel_scale_ > 0
        ):
            raise InputError("model file has inconsistent arrays", path=path)
        return model
