"""Tests of the papers' reproductions (`validation/`)."""
