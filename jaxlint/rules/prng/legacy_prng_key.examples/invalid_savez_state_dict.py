import io

import jax
import numpy as np

key = jax.random.PRNGKey(0)
state = {"step": np.int32(0), "rng": key}
buffer = io.BytesIO()
np.savez(buffer, **state)
