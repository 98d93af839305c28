"""Running the command line in-process, as the CLI tests do."""

import json

from poimkit.cli import main as cli_main
from poimkit.datasets import make_gattaca
from poimkit.io import write_fasta

#: options of a quick `run` (or `train`) on the small data of the `data` fixture
FAST = ["--no-grid", "--degree", "4", "--cv", "2", "--max-order", "2"]
FAST += ["--max-motifs", "0", "--quiet"]


def main(args) -> int:
    """`poimkit.cli.main` on arguments that may be paths."""
    return cli_main([str(a) for a in args])


def write_gattaca(folder, n: int, length: int, mean: float, sd: float, seed: int = 0):
    """``p.fa`` and ``n.fa`` of ``n`` GATTACA records each in ``folder``; (X, y)."""
    X, y = make_gattaca(
        n_pos=n, n_neg=n, length=length, mean=mean, sd=sd, random_state=seed
    )
    write_fasta(folder / "p.fa", [f"p{i}" for i in range(n)], X[y == 1])
    write_fasta(folder / "n.fa", [f"n{i}" for i in range(n)], X[y == 0])
    return X, y


def _refuse(token: str):
    raise AssertionError(f"{token} is not JSON: a strict reader refuses the file")


def strict_loads(text):
    """JSON text read as strict readers do: ``NaN`` and ``Infinity`` refused."""
    return json.loads(text, parse_constant=_refuse)


def strict_json(path):
    """A JSON file read as strict readers do (`strict_loads`)."""
    with open(path, encoding="utf-8") as handle:
        return strict_loads(handle.read())
