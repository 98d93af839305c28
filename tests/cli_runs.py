"""Running the command line in-process, as the CLI tests do."""

from poimkit.cli import main as cli_main

#: options of a quick `run` (or `train`) on the small data of the `data` fixture
FAST = ["--no-grid", "--degree", "4", "--cv", "2", "--max-order", "2"]
FAST += ["--max-motifs", "0", "--quiet"]


def main(args) -> int:
    """`poimkit.cli.main` on arguments that may be paths."""
    return cli_main([str(a) for a in args])
