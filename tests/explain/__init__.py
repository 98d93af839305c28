"""Tests of `poimkit.explain`."""
