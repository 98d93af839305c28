"""
Variant effects, exactly, k-mer by k-mer
========================================

The effect of a change of letters is score(alt) - score(ref), and because the score is
a sum of k-mer weights, the effect is the sum of the changed k-mers' weights:
`variant_effects` returns both, for every position of a sequence here (an in-silico
mutagenesis without a single model call).
"""

import matplotlib.pyplot as plt
import numpy as np

import poimkit
from poimkit.datasets import make_gattaca

X, y = make_gattaca(n_pos=300, n_neg=300, random_state=2)
model = poimkit.WDKernelSVC(degree=8, C=1.0).fit(X, y)
x = X[np.flatnonzero(y == 1)[0]]

refs, alts = [], []
for i in range(x.size):  # every SNV of one positive sequence
    for letter in range(4):
        if letter != x[i]:
            alt = x.copy()
            alt[i] = letter
            refs.append(x)
            alts.append(alt)
effects = poimkit.variant_effects(model, np.array(refs), np.array(alts))
strongest = np.abs(np.asarray(effects.effect)).reshape(x.size, 3).max(axis=1)
print(poimkit.decode(x)[0])
print("largest effect at position", int(np.argmax(strongest)) + 1)

fig, ax = plt.subplots(figsize=(8, 2.5), constrained_layout=True)
ax.bar(np.arange(1, x.size + 1), strongest, color="#255c99")
ax.set_xlabel("position (1-based)")
ax.set_ylabel("largest |effect|")
plt.show()
