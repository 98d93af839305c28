"""Motifs from POIMs: fit, result objects, file formats, known-motif comparison."""

from .compare import MotifMatch, known_motifs, match_motifs
from .extract import extract_motifs
from .motif import Motif

__all__ = ["Motif", "MotifMatch", "extract_motifs", "known_motifs", "match_motifs"]
