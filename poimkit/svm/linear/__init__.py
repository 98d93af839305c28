"""Linear-time WD / WDS SVMs: feature-space training, streaming and Dask.

`WDLinearSVC` trains the WD / WDS SVM of `poimkit.WDKernelSVC` on the explicit
(partly hashed) feature map, without a kernel matrix; see its Notes for the
feature map, solver, stopping rule and hashing. `WDLinearSVR` is its
regression counterpart (L2-loss SVR).
"""

from .estimator import WDLinearSVC
from .layout import FeatureLayout, make_layout
from .regressor import WDLinearSVR

__all__ = ["FeatureLayout", "WDLinearSVC", "WDLinearSVR", "make_layout"]
