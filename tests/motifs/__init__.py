"""Tests of `poimkit.motifs`."""
