"""Tests of `poimkit.genome`."""
