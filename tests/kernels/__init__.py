"""Tests of `poimkit.kernels`."""
