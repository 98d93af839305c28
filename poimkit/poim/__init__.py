"""Positional Oligomer Importance Matrices (POIMs) and the views derived from them."""

from .compute import compute_poim, explain_instance, model_poim
from .observed import observed_poim
from .result import Poim
from .sampled import as_score_function, sampled_instance, sampled_poim

__all__ = [
    "Poim",
    "as_score_function",
    "compute_poim",
    "explain_instance",
    "model_poim",
    "observed_poim",
    "sampled_instance",
    "sampled_poim",
]
