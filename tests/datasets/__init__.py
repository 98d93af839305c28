"""Tests of `poimkit.datasets`."""
