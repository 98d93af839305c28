"""Positional Oligomer Importance Matrices (POIMs) and the views derived from them."""

from .api import compute_poim, explain_instance
from .result import Poim

__all__ = ["Poim", "compute_poim", "explain_instance"]
