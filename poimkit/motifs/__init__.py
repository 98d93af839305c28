"""Motifs from POIMs: seeds, the motifPOIM fit, result objects and file formats."""

from .extract import extract_motifs
from .motif import Motif

__all__ = ["Motif", "extract_motifs"]
