"""The model contract (`poimkit.contract`): every model declares, none is probed."""

import dataclasses
import inspect

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from poimkit import (
    GkmSVC,
    GkmSVR,
    WDKernelSVC,
    WDKernelSVR,
    WDLinearSVC,
    WDLinearSVR,
)
from poimkit.contract import SequenceModel, declared_length
from poimkit.datasets import make_gattaca
from poimkit.motifs.model import MotifClassifier, MotifRegressor
from poimkit.motifs.stacked import StackedModel
from poimkit.svm.lsgkm import LsgkmModel
from poimkit.svm.lsgkm_rbf import LsgkmKernelModel

ESTIMATORS = [WDKernelSVC, WDKernelSVR, WDLinearSVC, WDLinearSVR, GkmSVC, GkmSVR]
_REGRESSORS = (WDKernelSVR, WDLinearSVR, GkmSVR)
MODEL_CLASSES = [
    *ESTIMATORS,
    LsgkmModel,
    LsgkmKernelModel,
    MotifClassifier,
    MotifRegressor,
    StackedModel,
]


def _constructor_names(cls) -> set[str]:
    if dataclasses.is_dataclass(cls):
        return {f.name for f in dataclasses.fields(cls)}
    return set(inspect.signature(cls).parameters)


@pytest.mark.parametrize("cls", MODEL_CLASSES, ids=lambda c: c.__name__)
def test_every_model_class_is_a_sequence_model(cls):
    assert issubclass(cls, SequenceModel)
    assert cls.decomposition in ("positional", "lmer_table", "score_only")


@pytest.mark.parametrize("cls", MODEL_CLASSES, ids=lambda c: c.__name__)
def test_recorded_parameters_are_the_models_own(cls):
    # a POIM's metadata records parameters the model has, never the defaults
    # of the contract (e.g. reverse_complement of a model without strands)
    own = _constructor_names(cls) | {"l"}  # motif models: the widest motif
    assert set(cls.recorded_params) <= own
    if cls in ESTIMATORS:
        assert set(cls.recorded_params) <= set(cls().get_params())


def test_the_torch_models_are_sequence_models():
    pytest.importorskip("torch")
    from poimkit.torch.cnn import CNNClassifier
    from poimkit.torch.scorer import TorchScorer

    assert issubclass(CNNClassifier, SequenceModel) and CNNClassifier.fits_groups
    assert issubclass(TorchScorer, SequenceModel) and TorchScorer.l == 1


@pytest.fixture(scope="module")
def gattaca():
    return make_gattaca(n_pos=40, n_neg=40, length=24, mean=10, sd=1, random_state=3)


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
def test_scores_size_and_labels_follow_the_task(cls, gattaca):
    X, y = gattaca
    params = {"l": 4, "k": 3} if cls in (GkmSVC, GkmSVR) else {"degree": 4}
    model = cls(**params).fit(X, y.astype(float) if cls in _REGRESSORS else y)
    expected = model.predict(X) if cls in _REGRESSORS else model.decision_function(X)
    np.testing.assert_array_equal(model.scores(X), expected)
    assert model.size() == {"n_support_vectors": int(model.n_support_.sum())}
    assert (model.classes_ is None) == (cls in _REGRESSORS)
    assert model.length_ == declared_length(model) == 24
    # the regressors still have no decision_function (scikit-learn's rule)
    assert hasattr(model, "decision_function") != (cls in _REGRESSORS)
    recorded = model.recorded()
    assert recorded == {
        f"model_{name}": str(getattr(model, name)) for name in cls.recorded_params
    }


def test_declared_length_reads_a_foreign_model_and_says_none_else(gattaca):
    X, y = gattaca
    foreign = LogisticRegression().fit(X, y)
    assert declared_length(foreign) == 24
    assert declared_length(foreign, ("length_",)) is None
    assert declared_length(object()) is None
    assert declared_length(WDKernelSVC()) is None  # not fitted: says none
