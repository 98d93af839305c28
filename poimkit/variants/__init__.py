"""Variant effects: exact score changes of SNVs and indels, k-mer by k-mer.

`variant_effects` scores reference / alternative sequence pairs with any
fitted model; `poimkit.variants.windows` cuts the windows a model sees around
variants of a genome; `score_variants` (`poimkit.variants.scoring`) scores
and tests the variants of a VCF or of sequence pairs, as ``poimkit
variants`` does.
"""

from .._lazy import lazy_exports
from .effects import variant_effects
from .result import KmerChange, VariantEffects

__getattr__, __dir__ = lazy_exports(
    __name__, {"ScoredVariants": "scoring", "score_variants": "scoring"}
)

__all__ = [
    "KmerChange",
    "ScoredVariants",
    "VariantEffects",
    "score_variants",
    "variant_effects",
]
