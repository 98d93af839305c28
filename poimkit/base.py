"""What the WD / WDS SVMs share: input checks, prediction and model files.

`WDKernelSVC` (a kernel expansion over support vectors, trained on the kernel
matrix) and `WDLinearSVC` (a weight vector over the explicit, partly hashed
feature map, trained in feature space) score sequences differently but take
the same inputs, predict the same way and write ``.npz`` model files (no
pickle) whose ``format`` names the estimator: each class reads only its own
files and `poimkit.models.load_model` opens either.
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


def optional_int(value) -> int | None:
    """A saved optional integer: NaN stands for None (`save` writes None so)."""
    value = optional_float(value)
    return None if value is None else int(value)


class WDClassifierBase(ClassifierMixin, BaseEstimator):
    """Base of the WD / WDS SVM estimators.

    Subclasses define ``__init__`` (scikit-learn parameters), ``fit``,
    ``decision_function``, ``explicit_weights``, ``_model_format``,
    ``_saved_params`` (parameter name -> type, written to and read from files;
    None is written as NaN and read back by `optional_float` / `optional_int`;
    ``_saved_defaults`` gives the value of parameters that older files lack),
    and the pair ``_fitted_arrays()`` / ``_restore(arrays)`` for the learned
    state. Every fitted model has ``classes_``, ``intercept_``,
    ``kernel_scale_``, ``length_`` and ``n_features_in_``.
    """

    _model_format: ClassVar[str]
    _format_version: ClassVar[int] = 1
    _saved_params: ClassVar[dict[str, type]]
    _saved_defaults: ClassVar[dict[str, object]] = {}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _check_length(self, X: np.ndarray) -> np.ndarray:
        if X.shape[1] != self.length_:
            raise InputError(
                f"X has sequences of length {X.shape[1]} but the model was trained "
                f"on length {self.length_}"
            )
        return X

    def _check_kmer_length(self) -> None:
        """Explicit weights index k-mers in 64 bits."""
        if min(self.degree, self.length_) > MAX_KMER_LENGTH:
            raise InputError(
                f"explicit weights need k-mers of at most {MAX_KMER_LENGTH} letters "
                f"(64-bit indices); this model has degree {self.degree} on length "
                f"{self.length_}: train with degree <= {MAX_KMER_LENGTH}"
            )

    def predict(self, X) -> np.ndarray:
        """Predicted class labels (``classes_[1]`` where the score is positive)."""
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(np.intp)]

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
            intercept=np.float64(self.intercept_),
            kernel_scale=np.float64(self.kernel_scale_),
            length=np.int64(self.length_),
            **self._fitted_arrays(),
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
            saved = {**cls._saved_defaults, **arrays}
            model = cls(
                **{name: kind(saved[name]) for name, kind in cls._saved_params.items()}
            )
            model.classes_ = arrays["classes"]
            model.intercept_ = float(arrays["intercept"])
            model.kernel_scale_ = float(arrays["kernel_scale"])
            model.length_ = model.n_features_in_ = int(arrays["length"])
            model._restore(arrays)
        except (KeyError, InputError, ValueError, TypeError) as exc:
            raise InputError(
                f"model file is incomplete or corrupt: {exc}", path=path
            ) from None
        if (
            model.classes_.shape != (2,)
            or not np.isfinite(model.intercept_)
            or not model.kernel_scale_ > 0
        ):
            raise InputError("model file has inconsistent arrays", path=path)
        return model
