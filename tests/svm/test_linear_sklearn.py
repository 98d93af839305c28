"""scikit-learn's estimator checks for WDLinearSVC (same exclusions as WDKernelSVC).

The excluded checks feed real-valued features that are not letter codes; see
tests/svm/test_sklearn_checks.py for the reason given for each. As there, an
excluded check must stop at the estimator's refusal of such input.
"""

from sklearn.utils.estimator_checks import parametrize_with_checks

from poimkit.svm.linear import WDLinearSVC

from .test_sklearn_checks import (
    _NOT_DNA,
    EXPECTED_FAILED_CHECKS,
    check_id_of,
    run_check,
)

EXPECTED = {
    **EXPECTED_FAILED_CHECKS,
    "check_non_transformer_estimators_n_iter": _NOT_DNA,
}


@parametrize_with_checks([WDLinearSVC(degree=3)])
def test_sklearn_estimator_checks(estimator, check, request):
    run_check(estimator, check, check_id_of(request.node), EXPECTED)
