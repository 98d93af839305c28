"""Reproduction scripts: every claim has a verdict; README shows the JSONs' table."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REPRODUCE = ROOT / "validation"
sys.path.insert(0, str(REPRODUCE))

from _common import VERDICTS, claim  # noqa: E402
from run_all import claims_table  # noqa: E402

SCRIPTS = sorted(
    p.stem
    for p in REPRODUCE.glob("*.py")
    if not p.name.startswith("_") and p.name != "run_all.py"
)


def test_every_script_states_its_claims():
    for stem in SCRIPTS:
        data = json.loads((REPRODUCE / "results" / f"{stem}.json").read_text())
        assert data["claims"], stem
        for entry in data["claims"]:
            assert entry["verdict"] in VERDICTS, (stem, entry)
            assert entry["claim"] and entry["paper"] is not None, (stem, entry)
            if entry["verdict"] != "holds":
                assert entry["reason"], (stem, entry)


def test_claim_needs_a_reason_unless_it_holds():
    assert claim("x", 1, 1, "holds")["reason"] is None
    with pytest.raises(ValueError, match="reason"):
        claim("x", 1, 2, "differs")
    with pytest.raises(ValueError, match="verdict"):
        claim("x", 1, 2, "roughly")


def test_readme_table_matches_the_jsons():
    readme = (ROOT / "docs" / "guide" / "papers.md").read_text().splitlines()
    table = claims_table()
    start = readme.index(table[0])
    assert readme[start : start + len(table)] == table
    assert len(table) > 2 + len(SCRIPTS)


def test_quick_reproductions_run_from_an_empty_folder(tmp_path):
    """What CI runs: every script at small sizes, from a folder of no meaning."""
    out = tmp_path / "results"
    result = subprocess.run(
        [sys.executable, REPRODUCE / "run_all.py", "--quick", "-o", out],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for stem in SCRIPTS:
        data = json.loads((out / f"{stem}.json").read_text())
        assert all(c["verdict"] in VERDICTS for c in data["claims"]), stem
