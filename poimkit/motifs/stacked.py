"""A stacked model: another model's score and the motif features in one linear model.

For a fitted model f (an SVM) and motifs m = 1..M the stack scores

    h(x) = c_0 + a f(x) + sum_m c_m s_m(x),

the same logistic (classes) or ridge (targets) model as
`poimkit.motifs.model.MotifClassifier` with f's score as a first feature.
The coefficients are fitted on out-of-fold scores of f (as scikit-learn's
``StackingClassifier`` does), so that a is not inflated by f's fit to its own
training sequences; new sequences are scored with f itself. The SVM part
keeps its exact k-mer decomposition: ``a`` times f's.

A stack is saved as its motif part (`MotifClassifier.save`) naming the model
file beside it (``model_file``); `poimkit.load_model` opens both.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..contract import SequenceModel
from ..errors import InputError
from ..param_docs import parameters_from
from .model import MotifClassifier, MotifRegressor, load_motif_model

#: a Parameters section of the one argument ``X`` (`poimkit.param_docs`)
_ON_SEQUENCES = parameters_from(
    {"X": "X : array-like\n    Sequences as the model takes them."}
)("X")


class StackedModel(SequenceModel):
    """A fitted model's score plus motif features (module notes).

    Parameters
    ----------
    model : fitted estimator
        The model whose score is the stack's first feature (``decision_function``
        or a regressor's ``predict``).
    part : MotifClassifier or MotifRegressor
        The motif part, fitted with that model's out-of-fold scores
        (``fit(X, y, scores=...)``).
    """

    def __init__(self, model: Any, part: MotifClassifier | MotifRegressor):
        if not part.stacked_:
            raise InputError("the motif part of a stack must be fitted with scores")
        self.model = model
        self.part = part

    @property
    def length_(self) -> int:
        """The model's sequence length (as the model scores)."""
        return int(self.model.length_)

    @property
    def position_free(self) -> bool:
        """True if both parts score sequences of any lengths."""
        from ..additive import position_free

        return position_free(self.model) and self.part.position_free

    @property
    def l(self) -> int:  # noqa: E743 (the field's name for a model's word length)
        """The shortest sequence both parts can score."""
        return max(int(self.model.l), self.part.l)

    # variant effects: both sequences scored, split by term (`terms`)
    names_terms = True
    recorded_params = ("l",)

    @property
    def calibration_(self) -> tuple[float, float] | None:
        """A classifier's Platt scaling of its scores (log-odds: the identity)."""
        return self.part.calibration_

    @property
    def classes_(self) -> np.ndarray:
        """The labels (a classifier's stack)."""
        return self.part.classes_

    @property
    def weight_(self) -> float:
        """a: the coefficient of the model's score."""
        return float(self.part.coef_[0])

    def describe(self) -> str:
        """One line naming the stack, for messages."""
        name = type(self.model).__name__
        return f"stack of {name} and {len(self.part.motifs)} motifs"

    @property
    def term_names(self) -> list[str]:
        """The names of `terms`' columns: "model", then the motifs'."""
        return ["model", *self.part.term_names]

    @_ON_SEQUENCES
    def terms(self, X: ArrayLike) -> np.ndarray:
        """The model's term ``a f(x)`` and each motif's, shape (n, 1 + M).

        %(parameters)s

        Returns
        -------
        numpy.ndarray of float64
            They sum to h(x) minus a constant.
        """
        model = self.weight_ * self.model.scores(X)
        return np.column_stack([model, self.part.terms(X)])

    def _applied(self, method: str, X: ArrayLike) -> np.ndarray:
        """The motif part's ``method`` on X, after the model's scores of X."""
        return getattr(self.part, method)(X, scores=self.model.scores(X))

    @_ON_SEQUENCES
    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """h(x) (module notes), shape (n,).

        %(parameters)s

        Returns
        -------
        numpy.ndarray of float64
        """
        return self._applied("decision_function", X)

    @_ON_SEQUENCES
    def predict(self, X: ArrayLike) -> np.ndarray:
        """Predicted labels or targets, shape (n,).

        %(parameters)s

        Returns
        -------
        numpy.ndarray
        """
        return self._applied("predict", X)

    @_ON_SEQUENCES
    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Class probabilities of a classifier's stack, shape (n, 2).

        %(parameters)s

        Returns
        -------
        numpy.ndarray of float64
        """
        return self._applied("predict_proba", X)

    def save(self, path: str | Path, model_file: str = "model.npz") -> None:
        """Write the motif part, naming the model file beside it.

        Parameters
        ----------
        path : str or pathlib.Path
            The stack's file.
        model_file : str
            The model's file name, in the same folder as ``path``.
        """
        self.part.save(path, model_file=np.str_(model_file))


def load_stacked(path: str | Path, load_model: Callable[[Path], Any]) -> StackedModel:
    """Open a stack written by `StackedModel.save` (and its model beside it).

    Parameters
    ----------
    path : str or pathlib.Path
        The stack's file.
    load_model : callable
        Opens the model file: `poimkit.load_model`, which opens stacks
        too (passing itself; this module imports no model family).

    Returns
    -------
    StackedModel
    """
    from ..io.files import read_npz

    part = load_motif_model(path)
    if not part.stacked_:
        raise InputError("a motif model, not a stack", path=str(path))
    name = str(read_npz(path, "poimkit.MotifModel", 1)["model_file"])
    return StackedModel(load_model(Path(path).parent / name), part)
