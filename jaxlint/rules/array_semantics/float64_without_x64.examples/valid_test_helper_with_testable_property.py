"""Support for a large-scale test: `tests/test_sweep.py` imports it. pytest collects
only `test_*.py` files and, in them, only classes named `Test*`: `testable` below is a
property of a result record, not a test, so this module is a helper the tests import,
and the tests (and their `conftest.py`) decide on x64."""

from dataclasses import dataclass

import jax.numpy as jnp
import numpy as np


@dataclass
class SweepResult:
    losses: np.ndarray

    @property
    def testable(self):
        return self.losses[np.isfinite(self.losses)]


def time_grid(n):
    return jnp.arange(n, dtype=jnp.float64) / n
