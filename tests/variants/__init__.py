"""Tests of `poimkit.variants`."""
