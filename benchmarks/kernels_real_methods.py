"""The columns (methods) of ``bench_kernels_real.py``."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass

from kernels_real_config import GKM
from kernels_real_peers import GkmsvmLite, gkmsvm, gkmsvm_defaults

import poimkit


# --------------------------------------------------------------------------- #
# methods
# --------------------------------------------------------------------------- #
@dataclass
class Method:
    name: str
    label: str
    make: Callable[[], object] | None  # unfitted estimator; None: skipped
    note: str = ""
    needs_equal_lengths: bool = False
    peer: bool = False  # gkmsvm-lite: pilot, budget
    budget: float = 0.0
    pipeline: dict | None = None  # RunOptions of a `cross_validate` column


def accepted_kwargs(cls, **kwargs) -> tuple[dict, list[str]]:
    params = inspect.signature(cls).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return dict(kwargs), []
    kept = {k: v for k, v in kwargs.items() if k in params}
    return kept, sorted(set(kwargs) - set(kept))


def make_methods(args) -> list[Method]:
    wd = poimkit.WDKernelSVC
    wd_params = inspect.signature(wd).parameters
    methods = [
        Method("wd", "poimkit WD (defaults)", wd, needs_equal_lengths=True),
    ]
    for name, param, value in (
        ("wd_rc", "reverse_complement", True),
        ("wd_mm1", "mismatches", 1),
    ):
        label = f"poimkit WD {param}={value}"
        if param in wd_params:
            methods.append(
                Method(
                    name,
                    label,
                    lambda p=param, v=value: wd(**{p: v}),
                    needs_equal_lengths=True,
                )
            )
        else:
            methods.append(
                Method(name, label, None, f"WDKernelSVC has no {param} parameter yet")
            )
    gkm_cls = getattr(poimkit, "GkmSVC", None)
    label = "poimkit GkmSVC(l=11, k=7, rc)"
    if gkm_cls is None:
        methods.append(Method("gkm", label, None, "poimkit.GkmSVC not importable yet"))
    else:
        kwargs, dropped = accepted_kwargs(gkm_cls, **GKM)
        note = f"GkmSVC lacks {dropped}: left out" if dropped else ""
        methods.append(Method("gkm", label, lambda: gkm_cls(**kwargs), note))
    for name, kernel, label, equal in (
        ("run_wd", "wd", "poimkit run (wd, nested selection)", True),
        ("run_gkm", "gkm", "poimkit run --kernel gkm (nested selection)", False),
    ):
        methods.append(
            Method(
                name,
                label,
                lambda: None,  # not an estimator: `run_pipeline_cv`
                needs_equal_lengths=equal,
                pipeline={"kernel": kernel},
            )
        )
    if gkmsvm is None:
        for name in ("gkmsvm", "gkmsvm_cnt"):
            methods.append(Method(name, name, None, "gkmsvm-lite not installed"))
    else:
        d = gkmsvm_defaults()
        methods.append(
            Method(
                "gkmsvm",
                f"gkmsvm-lite defaults ({d['kernel']})",
                lambda: GkmsvmLite(None),
                peer=True,
                budget=args.gkmsvm_budget,
            )
        )
        methods.append(
            Method(
                "gkmsvm_cnt",
                "gkmsvm-lite gkm_cnt",
                lambda: GkmsvmLite("gkm_cnt"),
                peer=True,
                budget=args.gkmsvm_cnt_budget,
            )
        )
    return methods
