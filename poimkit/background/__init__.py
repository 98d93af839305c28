"""Markov background models of DNA sequences for POIMs and FIRM.

`MarkovBackground` (in `markov`) is the chain of order D; `chain_tables`
checks and estimates its arrays (initial distribution, transitions).
"""

from .markov import MarkovBackground, check_background, kmer_probability_table

__all__ = ["MarkovBackground", "check_background", "kmer_probability_table"]
