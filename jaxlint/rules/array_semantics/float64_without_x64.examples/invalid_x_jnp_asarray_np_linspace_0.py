import numpy as np
import jax.numpy as jnp
x = jnp.asarray(np.linspace(0.0, 1.0, 5), np.float64)
