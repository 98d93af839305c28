"""Seeded synthetic data sets and loaders for the bundled ``data/`` files."""

from .gattaca import (
    GATTACA_BUNDLE,
    GATTACA_SEED,
    load_gattaca,
    make_gattaca,
    write_gattaca_data,
)
from .planted import make_planted, plant_motif, planting_pwm, random_dna
from .synthetic import (
    PlantedMotif,
    PlantingRecord,
    expected_pwm,
    make_motif_data,
    mutate_copies,
    sample_copies,
    sample_starts,
    write_dataset,
)

__all__ = [
    "GATTACA_BUNDLE",
    "PlantedMotif",
    "PlantingRecord",
    "GATTACA_SEED",
    "load_gattaca",
    "make_gattaca",
    "expected_pwm",
    "make_motif_data",
    "make_planted",
    "mutate_copies",
    "plant_motif",
    "planting_pwm",
    "random_dna",
    "sample_copies",
    "sample_starts",
    "write_dataset",
    "write_gattaca_data",
]
