"""Tests of `poimkit.background`."""
