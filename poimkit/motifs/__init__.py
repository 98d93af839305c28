"""Motifs from POIMs: fit, result objects, file formats, known-motif comparison."""

from .._lazy import lazy_exports

__all__ = ["Motif", "MotifMatch", "extract_motifs", "known_motifs", "match_motifs"]

#: public name -> the submodule that defines it (loaded on first use, so that
#: ``poimkit.motifs.hits`` and the command line's help stay light)
_LAZY = {
    "Motif": "motif",
    "MotifMatch": "compare",
    "extract_motifs": "extract",
    "known_motifs": "compare",
    "match_motifs": "compare",
}
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
