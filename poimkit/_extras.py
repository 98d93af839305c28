"""Optional dependencies: one clear message when one is missing (`require_torch`)."""

from __future__ import annotations

from importlib.util import find_spec

from .errors import InputError

#: how to get torch, said wherever it is missing
INSTALL_HINT = "pip install torch (the torch extra)"


def require_torch() -> None:
    """Raise `InputError` with the install command if torch cannot be imported.

    Found without importing torch (the check is cheap).

    Raises
    ------
    InputError
        Without torch.
    """
    if find_spec("torch") is None:
        raise InputError(
            f"deep models need PyTorch, which is not installed: {INSTALL_HINT}"
        )
