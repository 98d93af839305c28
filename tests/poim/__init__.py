"""Tests of `poimkit.poim`."""
