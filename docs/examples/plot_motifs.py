"""
The motif behind a model, with its evidence
===========================================

`extract_motifs` grows motifs from the POIM's strongest k-mers, finds their sites in the
labelled sequences and tests them on held-out halves: each motif comes with its PWM,
position and spread, the share of positives and negatives with a site, and a q-value.
"""

import matplotlib.pyplot as plt

import poimkit
from poimkit.datasets import make_gattaca
from poimkit.plot import plot_logo

X, y = make_gattaca(n_pos=300, n_neg=300, random_state=1)
model = poimkit.WDKernelSVC(degree=8, C=1.0).fit(X, y)
poim = poimkit.compute_poim(model, max_order=7)
motifs = poimkit.extract_motifs(poim, max_motifs=1, sequences=X, labels=y)
for m in motifs:
    shares = f"{m.frac_positive:.2f} of positives, {m.frac_negative:.2f} of negatives"
    print(m.consensus, f"at {m.position:.1f}:", shares, f"q = {m.q_value:.2g}")

ax = plot_logo(motifs[0].pwm)
ax.set_title(f"{motifs[0].consensus} at position {motifs[0].position:.0f}")
plt.show()
