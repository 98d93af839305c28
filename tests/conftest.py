"""Fixtures shared by the CLI error-path tests."""

import pytest

from .cli_runs import write_gattaca


@pytest.fixture
def data(tmp_path):
    """A folder holding two small input files (and nothing poimkit made)."""
    folder = tmp_path / "data"
    folder.mkdir()
    write_gattaca(folder, 20, 16, mean=5, sd=1)
    return folder
