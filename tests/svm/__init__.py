"""Tests of `poimkit.svm`."""
