import jax
import numpy as np

key = jax.random.PRNGKey(0)
k1, k2 = jax.random.split(key)
np.save('k1.npy', np.asarray(k1))
