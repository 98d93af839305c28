"""Seeded synthetic data sets and loaders for the bundled ``data/`` files.

`poimkit.datasets.synthetic` holds the planted-motif generators
(`make_planted`, `make_motif_data` and their pieces) and `write_dataset`;
`poimkit.datasets.planted_motif` the description of a motif to plant
(`PlantedMotif`) and of what was planted (`PlantingRecord`);
`poimkit.datasets.gattaca` the GATTACA toy data set of the papers;
`poimkit.datasets.genome` a synthetic genome with peaks, planted motif
sites and a VCF (`write_synthetic_genome`).
"""

from .gattaca import (
    GATTACA_BUNDLE,
    GATTACA_SEED,
    load_gattaca,
    make_gattaca,
    write_gattaca_data,
)
from .genome import SyntheticGenome, consensus_pwm, write_synthetic_genome
from .planted_motif import PlantedMotif, PlantingRecord
from .synthetic import (
    expected_pwm,
    make_motif_data,
    make_planted,
    mutate_copies,
    plant_motif,
    planting_pwm,
    random_dna,
    sample_copies,
    sample_starts,
    write_dataset,
)

__all__ = [
    # data sets: generate, write, load
    "make_planted",
    "make_motif_data",
    "make_gattaca",
    "load_gattaca",
    "write_gattaca_data",
    "write_dataset",
    "GATTACA_BUNDLE",
    "GATTACA_SEED",
    # a synthetic genome with peaks, sites and variants
    "write_synthetic_genome",
    "SyntheticGenome",
    "consensus_pwm",
    # planting motifs, piece by piece
    "PlantedMotif",
    "PlantingRecord",
    "random_dna",
    "plant_motif",
    "planting_pwm",
    "expected_pwm",
    "sample_starts",
    "sample_copies",
    "mutate_copies",
]
