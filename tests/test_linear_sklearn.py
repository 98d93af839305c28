"""scikit-learn's estimator checks for WDLinearSVC (same exclusions as WDKernelSVC).

The excluded checks feed real-valued features that are not letter codes; see
tests/test_sklearn_checks.py for the reason given for each.
"""

from sklearn.utils.estimator_checks import parametrize_with_checks

from poimkit.linear import WDLinearSVC

from .test_sklearn_checks import _NOT_DNA, EXPECTED_FAILED_CHECKS

EXPECTED = {
    **EXPECTED_FAILED_CHECKS,
    "check_non_transformer_estimators_n_iter": _NOT_DNA,
}


@parametrize_with_checks(
    [WDLinearSVC(degree=3)],
    expected_failed_checks=lambda est: EXPECTED,
)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
