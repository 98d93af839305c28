"""Variant effects: exact score changes of SNVs and indels, k-mer by k-mer.

`variant_effects` scores reference / alternative sequence pairs with any
fitted model; `poimkit.variants.windows` cuts the windows a model sees around
variants of a genome; `poimkit.variants.command` is the ``poimkit variants``
command.
"""

from .effects import variant_effects
from .result import KmerChange, VariantEffects

__all__ = ["KmerChange", "VariantEffects", "variant_effects"]
