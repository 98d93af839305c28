"""Execute the walkthrough notebooks (CI runs them at their small sizes)."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def outputs(nb, kind):
    return [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") in kind
    ]


@pytest.mark.parametrize("name", ["gattaca.ipynb"])
def test_notebook_executes(name, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    client.execute()  # raises CellExecutionError if a cell fails
    text = "".join(out.get("text", "") for out in outputs(nb, {"stream"}))
    assert "FIRM (order 7)" in text and "peak z" in text
    assert "GATTACA  position" in text  # the top positional 7-mer
    assert "figure with 2 panels" in text
