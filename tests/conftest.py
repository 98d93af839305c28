"""Fixtures shared by the CLI error-path tests."""

import pytest

from poimkit.datasets import make_gattaca
from poimkit.io import write_fasta


@pytest.fixture
def data(tmp_path):
    """A folder holding two small input files (and nothing poimkit made)."""
    folder = tmp_path / "data"
    folder.mkdir()
    X, y = make_gattaca(n_pos=20, n_neg=20, length=16, mean=5, sd=1, random_state=0)
    write_fasta(folder / "p.fa", [f"p{i}" for i in range(20)], X[y == 1])
    write_fasta(folder / "n.fa", [f"n{i}" for i in range(20)], X[y == 0])
    return folder
