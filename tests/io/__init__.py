"""Tests of `poimkit.io`."""
