"""Variant effects: exact score changes of SNVs and indels, k-mer by k-mer.

`variant_effects` scores reference / alternative sequence pairs with any
fitted model; `poimkit.variants.windows` cuts the windows a model sees around
variants of a genome; `score_variants` (`poimkit.variants.scoring`) scores
and tests the variants of a VCF or of sequence pairs, as ``poimkit
variants`` does; `score_all_snvs` and `write_all_snvs`
(`poimkit.variants.all_snvs`) every SNV of every peak, as ``poimkit variants
--all-snvs`` does.
"""

from .._lazy import lazy_exports
from .effects import variant_effects
from .result import KmerChange, VariantEffects

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "AllSnvs": "all_snvs",
        "ScoredVariants": "scoring",
        "score_all_snvs": "all_snvs",
        "score_variants": "scoring",
        "write_all_snvs": "all_snvs",
    },
)

__all__ = [
    "AllSnvs",
    "KmerChange",
    "ScoredVariants",
    "VariantEffects",
    "score_all_snvs",
    "score_variants",
    "variant_effects",
    "write_all_snvs",
]
