"""Genome workflow: reference genomes, peaks, negatives and variants (VCF)."""
