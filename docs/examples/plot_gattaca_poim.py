"""
POIMs of a WD model: which k-mer raises the score, where
=========================================================

A weighted-degree SVM is trained on the GATTACA toy set (the motif planted around
position 35 of 100-letter sequences); its POIMs, computed exactly from the model's
k-mer weights, show GATTACA's letters at their positions, and the differential POIM
shows the motif's length and start.
"""

import matplotlib.pyplot as plt

import poimkit
from poimkit.datasets import make_gattaca
from poimkit.plot import plot_differential, plot_poim_heatmap

X, y = make_gattaca(n_pos=1000, n_neg=1000, random_state=0)
model = poimkit.WDKernelSVC(degree=10, C=1.0).fit(X, y)
poim = poimkit.compute_poim(model, max_order=7)
print(poim.top(5))

fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), constrained_layout=True)
plot_poim_heatmap(poim, order=7, ax=top, top=8)
plot_differential(poim, ax=bottom)
plt.show()
