"""`WDKernelSVC`: a scikit-learn SVM on the weighted-degree string kernel."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.svm import SVC
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted

from .alphabet import MAX_KMER_LENGTH, check_codes, encode
from .errors import InputError
from .io import read_npz, write_npz
from .kernels import wd_kernel, wd_normalizer
from .weights import KmerWeights

MODEL_FORMAT = "poimkit.WDKernelSVC"
MODEL_FORMAT_VERSION = 1


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


class WDKernelSVC(ClassifierMixin, BaseEstimator):
    """Support vector classifier with the weighted-degree (WD / WDS) string kernel.

    Sequences are integer-coded arrays of shape ``(n_samples, length)``
    (A=0, C=1, G=2, T=3; see `poimkit.encode`) or lists of equal-length DNA
    strings. The kernel matrix is computed with `poimkit.wd_kernel` and the
    SVM is scikit-learn's `~sklearn.svm.SVC` with a precomputed kernel.

    Parameters
    ----------
    degree : int, default=20
        Longest k-mer compared. Explicit weights (and so POIMs) need
        ``min(degree, length) <= 31``.
    shift : int, default=0
        Maximal positional shift S of the WDS kernel; 0 gives the plain WD kernel.
    C : float, default=1.0
        Regularisation parameter of the SVM.
    normalize : bool, default=True
        Divide the kernel by a constant: the (constant) diagonal for WD, the mean
        training diagonal for WDS. A constant keeps the score linear in k-mer
        indicators, which exact POIMs need.
    class_weight : dict, "balanced" or None, default=None
        Passed to `~sklearn.svm.SVC`.
    tol : float, default=1e-3
        Stopping tolerance of the SVM solver.
    n_threads : int or None, default=None
        Threads for the kernel computation (None: numba's default).

    Attributes
    ----------
    classes_ : numpy.ndarray of shape (2,)
        Class labels; ``classes_[1]`` is the positive class (positive score).
    support_vectors_ : numpy.ndarray of uint8, shape (n_SV, length)
    dual_coef_ : numpy.ndarray of shape (n_SV,)
        ``alpha_j y_j`` of each support vector (already divided by nothing:
        the kernel scale is kept in ``kernel_scale_``).
    intercept_ : float
    kernel_scale_ : float
        The constant the kernel is divided by (1.0 if not normalised).
    length_ : int
        Sequence length the model was trained on.

    Examples
    --------
    >>> from poimkit.datasets import make_gattaca
    >>> X, y = make_gattaca(n_pos=60, n_neg=60, random_state=0)
    >>> clf = WDKernelSVC(degree=8).fit(X, y)
    >>> clf.decision_function(X[:2]).shape
    (2,)
    """

    def __init__(
        self,
        degree: int = 20,
        shift: int = 0,
        C: float = 1.0,
        normalize: bool = True,
        class_weight=None,
        tol: float = 1e-3,
        n_threads: int | None = None,
    ) -> None:
        self.degree = degree
        self.shift = shift
        self.C = C
        self.normalize = normalize
        self.class_weight = class_weight
        self.tol = tol
        self.n_threads = n_threads

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _check_params(self) -> None:
        if not isinstance(self.degree, int | np.integer) or self.degree < 1:
            raise InputError(f"degree must be an integer >= 1, got {self.degree!r}")
        if not isinstance(self.shift, int | np.integer) or self.shift < 0:
            raise InputError(f"shift must be an integer >= 0, got {self.shift!r}")
        if not self.C > 0:
            raise InputError(f"C must be > 0, got {self.C!r}")

    def _kernel(self, X1: np.ndarray, X2: np.ndarray | None = None) -> np.ndarray:
        K = wd_kernel(
            X1, X2, degree=self.degree, shift=self.shift, n_threads=self.n_threads
        )
        K /= self.kernel_scale_
        return K

    def fit(self, X, y) -> WDKernelSVC:
        """Train the SVM.

        Parameters
        ----------
        X : array-like of int, shape (n_samples, length), or list of str
        y : array-like of shape (n_samples,)
            Exactly two distinct labels.

        Returns
        -------
        self
        """
        self._check_params()
        if y is None:
            raise ValueError(
                "requires y to be passed, but the target y is None: give one label "
                "per sequence"
            )
        y = np.asarray(y)
        check_classification_targets(y)
        if type_of_target(y) != "binary":
            raise ValueError(
                "Only binary classification is supported: WDKernelSVC needs exactly "
                f"two classes, got {np.unique(y).size}: {np.unique(y).tolist()[:5]}"
            )
        if np.unique(y).size < 2:
            raise ValueError(
                "Classifier can't train when only one class is present: y holds only "
                f"{np.unique(y).tolist()}"
            )
        X = as_codes(X)
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise InputError(
                f"y has shape {y.shape} but X has {X.shape[0]} sequences; y must "
                "be one label per sequence"
            )
        self.classes_, y_index = np.unique(y, return_inverse=True)
        if self.shift >= X.shape[1]:
            raise InputError(
                f"shift must be smaller than the sequence length {X.shape[1]}, "
                f"got {self.shift}"
            )
        self.length_ = X.shape[1]
        self.n_features_in_ = X.shape[1]
        self.kernel_scale_ = (
            float(wd_normalizer(X, self.degree, self.shift)) if self.normalize else 1.0
        )
        svc = SVC(
            kernel="precomputed",
            C=self.C,
            tol=self.tol,
            class_weight=self.class_weight,
        )
        svc.fit(self._kernel(X), y_index)
        self.support_vectors_ = X[svc.support_]
        self.dual_coef_ = svc.dual_coef_[0].astype(np.float64)
        self.intercept_ = float(svc.intercept_[0])
        self.n_support_ = svc.n_support_
        self._weights = None
        return self

    def decision_function(self, X) -> np.ndarray:
        """Signed distance to the separating hyperplane (positive: ``classes_[1]``).

        Parameters
        ----------
        X : array-like of int, shape (n_samples, length), or list of str

        Returns
        -------
        numpy.ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X = self._check_length(as_codes(X))
        return (
            self._kernel(X, self.support_vectors_) @ self.dual_coef_ + self.intercept_
        )

    def predict(self, X) -> np.ndarray:
        """Predicted class labels."""
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(np.intp)]

    def _check_length(self, X: np.ndarray) -> np.ndarray:
        if X.shape[1] != self.length_:
            raise InputError(
                f"X has sequences of length {X.shape[1]} but the model was trained "
                f"on length {self.length_}"
            )
        return X

    def explicit_weights(self) -> KmerWeights:
        """The exact positional k-mer weights of the trained model.

        Returns
        -------
        KmerWeights
            ``decision_function(X) == explicit_weights().decision_function(X)``
            up to floating-point rounding.
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
            "degree": np.int64(self.degree),
            "shift": np.int64(self.shift),
            "C": np.float64(self.C),
            "normalize": np.bool_(self.normalize),
            "tol": np.float64(self.tol),
            "classes": classes,
            "support_vectors": self.support_vectors_,
            "dual_coef": self.dual_coef_,
            "intercept": np.float64(self.intercept_),
            "kernel_scale": np.float64(self.kernel_scale_),
            "length": np.int64(self.length_),
        }
        write_npz(path, MODEL_FORMAT, MODEL_FORMAT_VERSION, arrays)

    @classmethod
    def load(cls, path: str | Path) -> WDKernelSVC:
        """Read a model written by `save`.

        Raises
        ------
        InputError
            If the file is missing, not a poimkit model, truncated or corrupt,
            or written in a format version this poimkit cannot read.
        """
        path = str(path)
        arrays = read_npz(path, MODEL_FORMAT, MODEL_FORMAT_VERSION)
        try:
            model = cls(
                degree=int(arrays["degree"]),
                shift=int(arrays["shift"]),
                C=float(arrays["C"]),
                normalize=bool(arrays["normalize"]),
                tol=float(arrays["tol"]),
            )
            model.classes_ = arrays["classes"]
            model.support_vectors_ = check_codes(arrays["support_vectors"])
            model.dual_coef_ = np.asarray(arrays["dual_coef"], dtype=np.float64)
            model.intercept_ = float(arrays["intercept"])
            model.kernel_scale_ = float(arrays["kernel_scale"])
            model.length_ = int(arrays["length"])
        except (KeyError, InputError) as exc:
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
        model.n_support_ = np.array(
            [(model.dual_coef_ < 0).sum(), (model.dual_coef_ > 0).sum()]
        )
        model._weights = None
        return model
