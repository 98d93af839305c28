"""Wall and CPU seconds per CNN epoch on 1 and 2 torch threads (bench_deep_models).

`poimkit.torch.CNNClassifier` (default architecture) trains 2 epochs on 2,000
random records of 314 letters (the CTCF windows' length; 10 % held out at
random for early stopping, as the default) with ``n_threads`` 1 and 2; wall
and process CPU seconds per epoch (resource.getrusage). Random letters: only
the cost is measured. Run it on an otherwise idle machine.

    python benchmarks/deep_models_threads.py
"""

from __future__ import annotations

import os
import resource
import time

import numpy as np

from poimkit.torch import CNNClassifier


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, (2000, 314)).astype(np.uint8)
    y = np.arange(2000) % 2
    print(f"load average at start: {os.getloadavg()}")
    for threads in (1, 2):
        model = CNNClassifier(epochs=2, patience=10, n_threads=threads)
        c0, t0 = cpu(), time.perf_counter()
        model.fit(X, y)
        wall, used = time.perf_counter() - t0, cpu() - c0
        n = len(model.log_.train_loss)
        print(
            f"n_threads={threads}: {wall / n:.1f} s wall, {used / n:.1f} s CPU per "
            f"epoch ({n} epochs of 1800 training + 200 held-out records of 314 nt); "
            f"{wall / n / 1800 * 1e3:.1f} ms wall per training record and epoch"
        )
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
