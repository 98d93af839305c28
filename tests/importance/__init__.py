"""Tests of `poimkit.importance`."""
