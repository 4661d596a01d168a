import jax
import numpy as np


@jax.jit
def schedule(count):
    return 0.5 * count


for count in range(15):
    np.testing.assert_allclose(schedule(count), 0.5 * count)
    assert float(schedule(count)) >= 0
