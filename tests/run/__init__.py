"""Tests of `poimkit.run`."""
