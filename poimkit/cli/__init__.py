"""The ``poimkit`` command line: one module per subcommand, over the library.

`main` (in `poimkit.cli.main`) parses (`poimkit.cli.parser`, option groups
in `poimkit.cli.options`) and runs one subcommand in a worker thread
(`poimkit.cli.stopping`); each subcommand's module turns the parsed
arguments into typed library calls (`poimkit.cli.arguments`) and prints what
they return (`poimkit.cli.console`). No module outside this package sees the
parsed command line.
"""

from .main import main

__all__ = ["main"]
