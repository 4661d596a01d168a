import numpy as np
import jax.numpy as jnp
a = np.zeros(3, dtype=np.float64)
b = np.asarray([1.0, 2.0]).astype(np.float64)
c = jnp.asarray(a, dtype=jnp.float32)
d = jnp.zeros(3, dtype=float)
