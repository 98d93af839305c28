"""Tests of `poimkit.cli`."""
