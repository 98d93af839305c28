"""Numba options, defined once for every kernel in the package."""

# fastmath stays off: kernels and POIMs add many small probabilities and the
# results are compared with brute-force references to 1e-10.
NJIT = {"cache": True, "nogil": True}
NJIT_PARALLEL = {"cache": True, "nogil": True, "parallel": True}
