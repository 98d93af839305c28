"""Motif model files: `MotifClassifier` / `MotifRegressor` as ``.npz``, no pickle.

The motifs as fitted (placed where the inner CV chose), the feature choices
(smoothing, threshold), the scaler and linear model, a classifier's classes
and Platt scaling, and for a stack the name of its other model's file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from .motif import Motif

_FORMAT = "poimkit.MotifModel"
_VERSION = 1


def write_motif_model(model: Any, path: str | Path, **extra: np.ndarray) -> None:
    """Write a fitted motif model (its ``save``).

    Parameters
    ----------
    model : MotifClassifier or MotifRegressor
        Fitted.
    path : str or pathlib.Path
        The file to write (replaced if it exists).
    **extra : numpy.ndarray
        More arrays to store (a stack's reference to its model).
    """
    from ..io.files import write_npz

    motifs = list(model.motifs_)  # as fitted (placed where chosen)
    scaler, linear = model.pipeline_[0], model.pipeline_[-1]
    classes = np.array([]) if model.classes_ is None else model.classes_
    calibration = (np.nan,) * 2 if model.calibration_ is None else model.calibration_
    write_npz(
        path,
        _FORMAT,
        _VERSION,
        {
            "kind": np.str_(type(model).__name__),
            "pwms": np.concatenate([m.pwm for m in motifs]),
            "widths": np.array([m.length for m in motifs], dtype=np.int64),
            "names": np.array([m.name for m in motifs]),
            "positions": np.array([m.position for m in motifs]),
            "spreads": np.array([m.spread for m in motifs]),
            "n_sites": np.array([m.n_sites for m in motifs], dtype=np.int64),
            "counted": np.array([m.counted for m in motifs], dtype=bool),
            "both_strands": np.array(model._strands()),
            "background": model._background(),
            "smoothing": np.float64(model.smoothing_),
            "threshold": np.float64(
                np.nan if model.threshold_ is None else model.threshold_
            ),
            "stacked": np.bool_(model.stacked_),
            "length": np.int64(model.length_ or 0),
            "mean": scaler.mean_,
            "scale": scaler.scale_,
            "coef": np.ravel(linear.coef_),
            "intercept": np.float64(np.ravel(linear.intercept_)[0]),
            "classes": classes,
            "calibration": np.asarray(calibration),
            **extra,
        },
    )


def read_motif_model(path: str | Path) -> tuple[str, dict, dict]:
    """The parts of a motif model file: its kind, parameters and fitted attributes.

    Parameters
    ----------
    path : str or pathlib.Path
        A file written by `MotifClassifier.save` or `MotifRegressor.save`.

    Returns
    -------
    kind : {"MotifClassifier", "MotifRegressor"}
    params : dict
        The constructor's arguments (``motifs``, ``both_strands``,
        ``background``, ``smoothing``, ``threshold``).
    fitted : dict
        The fitted attributes (``pipeline_``, ``motifs_`` and the others);
        a classifier's ``calibration_`` if the file has one.

    Raises
    ------
    InputError
        For a file that is no motif model (naming it).
    """
    from sklearn.linear_model import LinearRegression, LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from ..io.files import read_npz

    a = read_npz(path, _FORMAT, _VERSION, "poimkit motif model")
    kind = str(a["kind"])
    if kind not in ("MotifClassifier", "MotifRegressor"):
        raise InputError(f"{path}: unknown motif model kind {kind!r}")
    motifs = _motifs(a)
    threshold = float(a["threshold"])
    params = {
        "motifs": motifs,
        "both_strands": [bool(b) for b in a["both_strands"]],
        "background": a["background"],
        "smoothing": float(a["smoothing"]),
        "threshold": "score" if np.isnan(threshold) else threshold,
    }
    scaler = StandardScaler()
    scaler.mean_, scaler.scale_ = a["mean"], a["scale"]
    scaler.var_ = scaler.scale_**2
    scaler.n_features_in_ = a["mean"].size
    if kind == "MotifClassifier":
        linear = LogisticRegression()
        linear.classes_ = a["classes"]
        linear.coef_ = a["coef"][None, :]
        linear.intercept_ = np.array([float(a["intercept"])])
    else:
        linear = LinearRegression()
        linear.coef_ = a["coef"]
        linear.intercept_ = float(a["intercept"])
    linear.n_features_in_ = a["mean"].size
    fitted = {
        "pipeline_": make_pipeline(scaler, linear),
        "smoothing_": float(a["smoothing"]),
        "threshold_": None if np.isnan(threshold) else threshold,
        "motifs_": motifs,
        "stacked_": bool(a["stacked"]),
        "n_motifs_": len(motifs),
    }
    if int(a["length"]):
        fitted["length_"] = int(a["length"])
    if kind == "MotifClassifier" and "calibration" in a:
        fitted["calibration_"] = tuple(float(v) for v in a["calibration"])
    return kind, params, fitted


def _motifs(a: dict) -> list[Motif]:
    """The motifs of a file's arrays (files before counted words: none counted)."""
    motifs, at = [], 0
    counted = a.get("counted", np.zeros(a["widths"].size, dtype=bool))
    for i, width in enumerate(a["widths"].tolist()):
        motif = Motif(
            a["pwms"][at : at + width],
            float(a["positions"][i]),
            float(a["spreads"][i]),
            name=str(a["names"][i]),
            n_sites=int(a["n_sites"][i]),
            counted=bool(counted[i]),
        )
        motifs.append(motif)
        at += width
    return motifs
