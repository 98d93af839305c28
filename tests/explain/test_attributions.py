"""Per-letter attributions: exact sums, and hypothetical ones by brute force."""

from functools import cache

import numpy as np
import pytest

from poimkit import GkmSVC, WDKernelSVC, WDLinearSVC
from poimkit.datasets import make_gattaca
from poimkit.errors import InputError
from poimkit.explain import letter_attributions
from poimkit.variants.effects import effect_engine

LENGTH = 24


@cache
def _data():
    return make_gattaca(n_pos=30, n_neg=30, length=LENGTH, random_state=1)


@cache
def _model(kind):
    X, y = _data()
    return {
        "wd": lambda: WDKernelSVC(degree=5),
        "wds": lambda: WDKernelSVC(degree=4, shift=2),
        "wd_rc": lambda: WDKernelSVC(degree=4, reverse_complement=True),
        "linear": lambda: WDLinearSVC(degree=4),
        "gkm": lambda: GkmSVC(l=6, k=4),
        "gkm_fwd": lambda: GkmSVC(l=5, k=3, reverse_complement=False),
    }[kind]().fit(X, y)


KINDS = ["wd", "wds", "wd_rc", "linear", "gkm", "gkm_fwd"]


@pytest.mark.parametrize("kind", KINDS)
def test_contributions_sum_to_the_score_and_match_the_engine(kind):
    X, _ = _data()
    model = _model(kind)
    found = letter_attributions(model, X[:6])
    intercept = float(np.ravel(model.intercept_)[0])
    total = found.contributions.sum(axis=1) + intercept
    assert total == pytest.approx(model.decision_function(X[:6]), abs=1e-9)
    engine = effect_engine(model)
    for x, row in zip(X[:6], found.contributions, strict=True):
        assert row == pytest.approx(engine.contributions(x), abs=1e-12)


@pytest.mark.parametrize("kind", KINDS)
def test_hypothetical_contributions_are_those_of_the_changed_record(kind):
    X, _ = _data()
    model = _model(kind)
    engine = effect_engine(model)
    x = X[3]
    found = letter_attributions(model, [x])
    for i in (0, 5, LENGTH - 1):
        for b in range(4):
            changed = x.copy()
            changed[i] = b
            expected = engine.contributions(changed)[i]
            assert found.hypothetical[0, b, i] == pytest.approx(expected, abs=1e-12)


def test_records_of_any_length_for_gkm_and_the_one_hot_layout():
    X, _ = _data()
    records = [X[0][:20], X[1]]
    found = letter_attributions(_model("gkm"), records)
    assert found.hypothetical.shape == found.ohe.shape == (2, 4, LENGTH)
    assert found.ohe[0, :, 20:].sum() == 0 and found.hypothetical[0, :, 20:].sum() == 0
    assert found.ohe.sum(axis=1)[1].tolist() == [1.0] * LENGTH
    expected = _model("gkm").decision_function([records[0]])[0]
    assert found.contributions[0].sum() + _model("gkm").intercept_ == pytest.approx(
        expected
    )


def test_wrong_lengths_and_letters_are_refused():
    X, _ = _data()
    with pytest.raises(InputError, match="of its length 24"):
        letter_attributions(_model("wd"), [X[0][:20]])
    with pytest.raises(InputError, match="codes 0-3"):
        letter_attributions(_model("wd"), [np.full(LENGTH, 4, np.uint8)])


@pytest.mark.parametrize("kernel", ["gkm_cnt", "gkm_estfull", "gkm_esttrunc"])
def test_lsgkm_files_contributions_sum_to_their_score(tmp_path, kernel):
    from poimkit import load_model
    from poimkit.alphabet import encode

    from ..svm.test_lsgkm import random_strings
    from ..svm.test_lsgkm_explain import write_model

    model = load_model(write_model(tmp_path, kernel))
    strings = random_strings(np.random.default_rng(2), 5, 12, 30)
    records = [encode([s])[0] for s in strings]
    found = letter_attributions(model, records)
    total = found.contributions.sum(axis=1) + float(np.ravel(model.intercept_)[0])
    assert total == pytest.approx(model.decision_function(strings), abs=1e-9)
    engine = effect_engine(model)
    for x, row in zip(records, found.contributions, strict=True):
        assert row[: x.size] == pytest.approx(engine.contributions(x), abs=1e-12)
