"""Model-agnostic importance measures from the papers.

FIRM (Zien et al. 2009), permutation feature importance (Breiman; Fisher, Rudin
and Dominici), sensitivity analysis (Huh and Lee), MFI (Vidovic et al.) and
FIBLR. The sequence versions of FIRM and MFI are the POIMs in `poimkit.poim`.
"""

from .fiblr import FIBLRClassifier
from .firm import (
    firm,
    firm_binary,
    firm_indicators,
    firm_least_squares,
    firm_linear,
    firm_linear_binary,
    rbf_svm_gradient,
)
from .mfi import MorfCurve, hsic, mfi, morf_curve
from .permutation import PermutationResult, permutation
from .sensitivity import output_spread, sensitivity

__all__ = [
    "FIBLRClassifier",
    "MorfCurve",
    "PermutationResult",
    "firm",
    "firm_binary",
    "firm_indicators",
    "firm_least_squares",
    "firm_linear",
    "firm_linear_binary",
    "hsic",
    "mfi",
    "morf_curve",
    "output_spread",
    "permutation",
    "rbf_svm_gradient",
    "sensitivity",
]
