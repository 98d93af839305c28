"""Per-letter explanations of single records: what each letter adds to the score.

`letter_attributions` gives every record's exact per-letter contributions
(the model's k-mer weights shared by their letters) and the hypothetical
contributions of every letter at every position, in the layout
modisco-lite reads (records x 4 x length).
"""

from .attributions import Attributions, letter_attributions

__all__ = ["Attributions", "letter_attributions"]
