"""Linear-time WD / WDS SVMs: feature-space training, streaming and Dask.

`WDLinearSVC` trains the WD / WDS SVM of `poimkit.WDKernelSVC` on the explicit
(partly hashed) feature map, without a kernel matrix; see its Notes for the
feature map, solver, stopping rule and hashing. `WDLinearSVR` is its
regression counterpart (L2-loss SVR).

Modules, from the estimators down:

* ``estimator`` -- `WDLinearSVC` (classification; also the dual CD solver's driver).
* ``regressor`` -- `WDLinearSVR` (L2-loss SVR).
* ``model`` -- `FeatureSpaceModel`, what both share: fit, scoring, model files.
* ``lbfgs`` -- the primal L-BFGS with exact line search (also used by `poimkit.GkmSVC`).
* ``losses`` -- the per-sequence losses and their derivatives.
* ``passes`` -- the data-parallel passes (margins, gradient, gram), here or on Dask.
* ``dask`` -- opening the Dask client the passes run on.
* ``chunks`` -- the training data as row chunks: arrays, or a FASTA pair on disk.
* ``layout`` -- `FeatureLayout`, the column layout of the feature map, and `FeatureMap`.
* ``table`` -- the exact sparse table of the training data's positional k-mers.
* ``private_kmers`` -- writing the private k-mers that carry weight into the table.
* ``cache`` -- the item cache: each chunk's sparse columns looked up once.
* ``items`` -- the item format of that cache.
* ``weights`` -- exact positional k-mer weights of a fitted model.
* ``_features`` -- numba: the on-the-fly WD / WDS features and the passes' loops.
* ``_table`` -- numba: the open-addressing table and the hash.
* ``_dualcd`` -- numba: the dual coordinate descent solver.
"""

from .estimator import WDLinearSVC
from .layout import FeatureLayout, make_layout
from .regressor import WDLinearSVR

__all__ = ["FeatureLayout", "WDLinearSVC", "WDLinearSVR", "make_layout"]
