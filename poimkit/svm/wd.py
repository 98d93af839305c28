"""`WDKernelSVC` and `WDKernelSVR`: scikit-learn SVMs on the weighted-degree kernel.

Both are a kernel expansion over support vectors, trained by libsvm on the
precomputed kernel matrix (`~sklearn.svm.SVC`, `~sklearn.svm.SVR`); they share
`WDExpansion` (kernel, scores, explicit weights, model files), so a regressor
has the same exact k-mer weights, POIMs and motifs as a classifier.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numpy.typing import ArrayLike
from sklearn.svm import SVC, SVR
from sklearn.utils.validation import check_is_fitted

from .._validation import (
    check_binary_target,
    check_flag,
    check_mismatches,
    check_nonnegative,
    check_real,
    check_sequences,
    check_shift,
)
from ..alphabet import check_codes
from ..errors import InputError
from ..kernels.explicit import KmerWeights
from ..kernels.wd import wd_kernel
from ..param_docs import fill_doc
from ._base import KernelRegressorBase, WDClassifierBase, WDParams
from .intercept import svc_intercept

#: the docs of the parameters `WDKernelSVC` and `WDKernelSVR` share
PARAMETERS = {
    "wd_kernel": """
degree : int, default=20
    Longest k-mer compared. Explicit weights (and so POIMs) need
    ``min(degree, length) <= 31``.
shift : int, default=0
    Maximal positional shift S of the WDS kernel; 0 gives the plain WD kernel.
C : float, default=1.0
    Regularisation parameter of the SVM (`~sklearn.svm.SVC`, `~sklearn.svm.SVR`;
    with the default normalisation the kernel's diagonal is 1).
normalize : bool, default=True
    Divide the kernel by a constant: the (constant) diagonal for WD, the mean
    training diagonal for WDS. A constant keeps the score linear in k-mer
    indicators, which exact POIMs need.
n_threads : int or None, default=None
    Threads for the kernel computation (None: numba's default).
tol : float, default=1e-3
    Stopping tolerance of the solver.
mismatches : int, default=0
    WD kernel with mismatches (Shogun's ``max_mismatch``): k-mer pairs at
    Hamming distance ``j <= min(mismatches, k - 1)`` count with weight
    ``1 / (C(k, j) 3**j)`` (see `poimkit.wd_kernel`). Needs ``shift=0``
    (an `InputError` otherwise). Explicit weights spread every
    support-vector k-mer over its ``sum_{j <= m} C(k, j) 3**j`` Hamming
    neighbours, so they grow about that much (`explicit_weights` refuses,
    with the estimate, beyond 4 GiB).
reverse_complement : bool, default=False
    Strand-symmetric kernel ``k(x, x') + k(rc(x), x')``: a sequence and its
    reverse complement score alike. Works with shifts and mismatches; with
    ``normalize`` the kernel is divided by the mean training diagonal.
""",
}


@dataclass(eq=False, repr=False, kw_only=True)
class WDExpansion(WDParams):
    """A fitted WD / WDS kernel expansion: what `WDKernelSVC` and `WDKernelSVR` share.

    The parameters both take (`WDParams` and these, documented in
    ``PARAMETERS``), the kernel (`_raw_kernel`), training on its matrix
    (`_fit_svm`), scores (`_score`), explicit weights and model files, for
    any libsvm estimator on a precomputed kernel whose score is ``sum_j
    dual_coef_[j] k(sv_j, x) / kernel_scale_ + intercept_``.
    """

    tol: float = 1e-3
    mismatches: int = 0
    reverse_complement: bool = False

    #: its POIMs may convolve the unshifted weights (`shift_base_weights`)
    #: over the shifts instead of expanding them (`poimkit.additive`)
    convolves_shifts: ClassVar[bool] = True
    #: candidates fit on one raw kernel matrix (`poimkit.contract`)
    shares_gram: ClassVar[bool] = True

    #: what `save` writes and `load` reads (the classifier's; the regressor adds
    #: ``epsilon``)
    _saved_params = {
        **WDParams._saved_params,
        "tol": float,
        "mismatches": int,
        "reverse_complement": bool,
    }

    def fit(self, X: ArrayLike, y: ArrayLike) -> WDExpansion:
        """Train the SVM (`WDKernelSVC`) or the SVR (`WDKernelSVR`).

        Parameters
        ----------
        X : array-like of int, shape (n_samples, length), or list of str
            Integer-coded sequences or equal-length DNA strings.
        y : array-like of shape (n_samples,)
            Exactly two distinct labels (`WDKernelSVC`), or finite real
            targets, one per sequence (`WDKernelSVR`).

        Returns
        -------
        self
        """
        X, y = self._checked_training(X, y)
        return self._fit_gram(X, y, self._raw_kernel(X))

    def _checked_training(self, X: ArrayLike, y: ArrayLike) -> tuple:
        """``(X, y)`` checked as `fit` takes them, the shift against the length."""
        X, y = self._training_data(X, y)
        check_shift(self.shift, X.shape[1])
        return X, y

    def _check_params(self) -> None:
        """Check the kernel's and the solver's parameters (common to both)."""
        self._check_wd_params()
        check_real(self.tol, "tol", 0)
        check_mismatches(self.mismatches, self.shift)
        check_flag(self.reverse_complement, "reverse_complement")

    # ------------------------------------------------------------ Gram protocol
    # `poimkit.svm.selection` fits many models from one kernel matrix through these
    # three methods (the protocol is described there); `fit` and
    # the scores use them too, so there is one code path.
    def _raw_kernel(self, X1: np.ndarray, X2: np.ndarray | None = None) -> np.ndarray:
        """Un-normalised kernel matrix of validated codes (`wd_kernel`)."""
        return wd_kernel(
            X1,
            X2,
            degree=self.degree,
            shift=self.shift,
            n_threads=self.n_threads,
            mismatches=self.mismatches,
            reverse_complement=self.reverse_complement,
        )

    def _fit_svm(
        self, svm, X: np.ndarray, target: np.ndarray, K_raw: np.ndarray
    ) -> None:
        """Fit the libsvm estimator ``svm`` (precomputed kernel) on ``K_raw``.

        ``K_raw = _raw_kernel(X)`` is overwritten. Sets the fitted expansion and
        ``_gram_support``, the rows of ``X`` that are support vectors. The
        normalisation constant is the mean diagonal of ``K_raw``: the value of
        `wd_normalizer` (no numba call, so selection can fit in threads).
        """
        self.kernel_scale_ = _mean_diagonal(K_raw) if self.normalize else 1.0
        K_raw /= self.kernel_scale_
        svm.fit(K_raw, target)
        self._set_expansion(
            X[svm.support_],
            svm.dual_coef_[0],
            svm.intercept_[0],
            self.kernel_scale_,
            X.shape[1],
        )
        self._gram_support = svm.support_

    def _decision_gram(self, X: np.ndarray, K_raw: np.ndarray) -> np.ndarray:
        """Scores of ``X`` from ``K_raw = _raw_kernel(X, support_vectors_)``."""
        K_raw /= self.kernel_scale_
        return K_raw @ self.dual_coef_ + self.intercept_

    def _score(self, X: ArrayLike) -> np.ndarray:
        """``sum_j dual_coef_[j] k(sv_j, x) / kernel_scale_ + intercept_``."""
        X = self._fitted_codes(X)
        return self._decision_gram(X, self._raw_kernel(X, self.support_vectors_))

    def _set_expansion(
        self,
        support_vectors: np.ndarray,
        dual_coef: np.ndarray,
        intercept: float,
        kernel_scale: float,
        length: int,
    ) -> None:
        self.intercept_ = float(intercept)
        self.kernel_scale_ = float(kernel_scale)
        self.length_ = self.n_features_in_ = int(length)
        self._restore({"support_vectors": support_vectors, "dual_coef": dual_coef})

    def explicit_weights(self) -> KmerWeights:
        """The exact positional k-mer weights of the fitted model (cached).

        Returns
        -------
        KmerWeights
            ``explicit_weights().decision_function(X)`` equals
            ``decision_function(X)`` up to floating-point rounding. Its size
            grows like ``n_SV * length * degree`` entries of 16 bytes for high
            degrees (k-mers longer than about 10 are mostly unique), times up
            to ``sum_{j <= m} C(k, j) 3**j`` with ``mismatches=m`` and up to 2
            with ``reverse_complement``.

        Raises
        ------
        InputError
            If k-mers exceed 31 letters, or if the weights of a model with
            mismatches would need more than 4 GiB (the message gives the
            estimate; see `poimkit.kernels.explicit.mismatch_weight_size`).
        """
        check_is_fitted(self)
        if getattr(self, "_weights", None) is None:
            self._weights = self._expand(self.shift)
        return self._weights

    def shift_base_weights(self) -> KmerWeights:
        """The weights of the same support vectors without shifts (cached).

        Returns
        -------
        KmerWeights
            ``U``: `explicit_weights` of this model with ``shift=0`` (same
            support vectors, coefficients, mismatches and strands). The WDS
            weights are ``U`` convolved along positions with ``h_0 = 1``,
            ``h_s = 1 / (2 (s + 1))`` (see `poimkit.poim.shifted`), which
            `poimkit.compute_poim` uses instead of expanding the shifts.
        """
        check_is_fitted(self)
        if not self.shift:
            return self.explicit_weights()
        if getattr(self, "_base_weights", None) is None:
            self._base_weights = self._expand(0)
        return self._base_weights

    def _expand(self, shift: int) -> KmerWeights:
        """The support vectors' k-mer weights with shifts up to ``shift``."""
        self._check_kmer_length()
        return KmerWeights.from_support_vectors(
            self.support_vectors_,
            self.dual_coef_ / self.kernel_scale_,
            self.intercept_,
            degree=self.degree,
            shift=shift,
            mismatches=self.mismatches,
            reverse_complement=self.reverse_complement,
        )

    # ------------------------------------------------------------------ files
    def _fitted_arrays(self) -> dict[str, np.ndarray]:
        return {"support_vectors": self.support_vectors_, "dual_coef": self.dual_coef_}

    def _restore(self, arrays) -> None:
        self.support_vectors_ = np.ascontiguousarray(
            check_codes(arrays["support_vectors"], "support_vectors")
        )
        self.dual_coef_ = np.ascontiguousarray(arrays["dual_coef"], dtype=np.float64)
        if (
            self.dual_coef_.shape != (self.support_vectors_.shape[0],)
            or self.support_vectors_.shape[1] != self.length_
            or not np.isfinite(self.dual_coef_).all()
        ):
            raise InputError("support vectors and coefficients are inconsistent")
        self.n_support_ = np.array(
            [(self.dual_coef_ < 0).sum(), (self.dual_coef_ > 0).sum()]
        )
        self._weights = None
        self._base_weights = None


@fill_doc(PARAMETERS, parameters=("wd_kernel", "class_weight"))
@dataclass(eq=False, repr=False, kw_only=True)
class WDKernelSVC(WDExpansion, WDClassifierBase):
    """Support vector classifier with the weighted-degree (WD / WDS) string kernel.

    Sequences are integer-coded arrays of shape ``(n_samples, length)``
    (A=0, C=1, G=2, T=3; see `poimkit.encode`) or lists of equal-length DNA
    strings. The kernel matrix is computed with `poimkit.wd_kernel` and the
    SVM is scikit-learn's `~sklearn.svm.SVC` with a precomputed kernel.

    %(parameters)s

    Attributes
    ----------
    classes_ : numpy.ndarray of shape (2,)
        Class labels; ``classes_[1]`` is the positive class (positive score).
    support_vectors_ : numpy.ndarray of uint8, shape (n_SV, length)
    dual_coef_ : numpy.ndarray of shape (n_SV,)
        ``alpha_j y_j`` of each support vector (already divided by nothing:
        the kernel scale is kept in ``kernel_scale_``).
    intercept_ : float
        libsvm's, except where every training record lies inside the margin
        (at a small ``C``): the class counts alone then set libsvm's, and it
        is placed halfway between the two classes' median scores of the
        training records scored as if held out (`poimkit.svm.intercept`), so
        that ``predict`` labels well without a calibration.
    kernel_scale_ : float
        The constant the kernel is divided by (1.0 if not normalised).
    length_ : int
        Sequence length the model was trained on.
    n_support_ : numpy.ndarray of shape (2,)
        Support vectors of the negative and of the positive class.

    Examples
    --------
    >>> from poimkit.datasets import make_gattaca
    >>> X, y = make_gattaca(n_pos=60, n_neg=60, random_state=0)
    >>> clf = WDKernelSVC(degree=8).fit(X, y)
    >>> clf.decision_function(X[:2]).shape
    (2,)
    """

    recorded_params = tuple(
        "degree shift mismatches reverse_complement C normalize".split()
    )

    _model_format = "poimkit.WDKernelSVC"
    #: files written before mismatches and strands
    _saved_defaults = {"mismatches": 0, "reverse_complement": False}

    class_weight: dict | str | None = None

    def _training_data(self, X: ArrayLike, y: ArrayLike) -> tuple:
        """The checked parameters, then ``(X, y)`` checked: two labels, one each."""
        self._check_params()
        y = check_binary_target(y, "WDKernelSVC")
        return check_sequences(X, y), y

    # the Gram protocol of `poimkit.svm.selection` (with `WDExpansion`'s methods)
    def _fit_gram(self, X: np.ndarray, y: np.ndarray, K_raw: np.ndarray) -> WDKernelSVC:
        """`fit` after the kernel: ``K_raw = _raw_kernel(X)``, overwritten here.

        ``X`` and ``y`` are validated. Sets the fitted attributes and
        ``_gram_support``, the rows of ``X`` that are support vectors (see
        `WDExpansion._fit_svm`).
        """
        classes, y_index = np.unique(y, return_inverse=True)
        svc = SVC(
            kernel="precomputed",
            C=self.C,
            tol=self.tol,
            class_weight=self.class_weight,
        )
        self._fit_svm(svc, X, y_index, K_raw)
        self.intercept_ = svc_intercept(svc, K_raw, y_index)
        self.classes_ = classes
        return self

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Signed distance to the separating hyperplane (positive: ``classes_[1]``).

        Parameters
        ----------
        X : array-like of int, shape (n_samples, length), or list of str
            Sequences of the length the model was trained on.

        Returns
        -------
        numpy.ndarray of shape (n_samples,)
            ``sum_j dual_coef_[j] k(sv_j, x) / kernel_scale_ + intercept_``.
        """
        return self._score(X)


@fill_doc(PARAMETERS, parameters=("wd_kernel", "epsilon"))
@dataclass(eq=False, repr=False, kw_only=True)
class WDKernelSVR(WDExpansion, KernelRegressorBase):
    """Support vector regression with the weighted-degree (WD / WDS) string kernel.

    The regression counterpart of `WDKernelSVC` (same kernel, parameters and
    exact explicit weights), for continuous targets (MPRA or STARR-seq
    activity, guide efficiency, binding affinity): scikit-learn's
    `~sklearn.svm.SVR` (epsilon-insensitive loss) on the precomputed kernel
    matrix. Its prediction is a sum of positional k-mer weights
    (`explicit_weights`), so `poimkit.compute_poim` is exact for it too.

    %(parameters)s

    Attributes
    ----------
    support_vectors_ : numpy.ndarray of uint8, shape (n_SV, length)
    dual_coef_ : numpy.ndarray of shape (n_SV,)
        ``alpha_j - alpha_j*`` of each support vector.
    intercept_ : float
    kernel_scale_ : float
        The constant the kernel is divided by (1.0 if not normalised).
    length_ : int
        Sequence length the model was trained on.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 4, size=(60, 20), dtype=np.uint8)
    >>> y = (X[:, 5] == 2) + rng.normal(scale=0.1, size=60)
    >>> reg = WDKernelSVR(degree=3).fit(X, y)
    >>> reg.predict(X[:2]).shape
    (2,)
    """

    recorded_params = tuple(
        "degree shift mismatches reverse_complement C epsilon normalize".split()
    )

    _model_format = "poimkit.WDKernelSVR"
    _saved_params = {**WDExpansion._saved_params, "epsilon": float}

    epsilon: float = 0.1

    def _check_params(self) -> None:
        super()._check_params()
        check_nonnegative(self.epsilon, "epsilon")

    def _fit_gram(self, X: np.ndarray, y: np.ndarray, K_raw: np.ndarray) -> WDKernelSVR:
        """`fit` after the kernel: ``K_raw = _raw_kernel(X)``, overwritten here."""
        svr = SVR(kernel="precomputed", C=self.C, epsilon=self.epsilon, tol=self.tol)
        self._fit_svm(svr, X, y, K_raw)
        return self


def _mean_diagonal(K: np.ndarray) -> float:
    """Mean of ``diag(K)``; a constant diagonal (WD) is returned exactly."""
    diagonal = np.diag(K)
    if (diagonal == diagonal[0]).all():
        return float(diagonal[0])
    return float(diagonal.mean())
