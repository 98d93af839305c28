"""Linear-time WD / WDS SVMs: feature-space training, streaming and Dask.

`WDLinearSVC` trains the WD / WDS SVM of `poimkit.WDKernelSVC` on the explicit
(partly hashed) feature map, without a kernel matrix; see its Notes for the
feature map, solver, stopping rule and hashing.
"""

from .estimator import WDLinearSVC
from .layout import FeatureLayout, make_layout

__all__ = ["FeatureLayout", "WDLinearSVC", "make_layout"]
