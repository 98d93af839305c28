"""Tests of `poimkit.plot`."""
