"""Per-letter explanations of single records: what each letter adds to the score.

`letter_attributions` gives every record's exact per-letter contributions
(the model's k-mer weights shared by their letters) and the hypothetical
contributions of every letter at every position, in the layout
modisco-lite reads (records x 4 x length). `ism_attributions` gives the same
for any model by in-silico mutagenesis, and `explain_records` picks the one
that fits the model. `attribution_poim` turns attributions into a
position-free POIM of k-mers in the records' context, where motifs that act
only together show.
"""

from .attributions import Attributions, letter_attributions
from .ism import ism_attributions
from .kmer_poim import attribution_poim
from .records import explain_records

__all__ = [
    "Attributions",
    "attribution_poim",
    "explain_records",
    "ism_attributions",
    "letter_attributions",
]
