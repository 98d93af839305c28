"""Seeded synthetic data sets and loaders for the bundled ``data/`` files."""

from .gattaca import (
    GATTACA_BUNDLE,
    GATTACA_SEED,
    load_gattaca,
    make_gattaca,
    write_gattaca_data,
)
from .planted import make_planted, plant_motif, planting_pwm, random_dna

__all__ = [
    "GATTACA_BUNDLE",
    "GATTACA_SEED",
    "load_gattaca",
    "make_gattaca",
    "make_planted",
    "plant_motif",
    "planting_pwm",
    "random_dna",
    "write_gattaca_data",
]
