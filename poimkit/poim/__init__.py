"""Positional Oligomer Importance Matrices (POIMs) and the views derived from them."""
