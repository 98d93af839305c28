"""Tests of `poimkit.torch`."""
