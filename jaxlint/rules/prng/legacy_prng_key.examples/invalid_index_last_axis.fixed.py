import jax
import numpy as np

key = jax.random.PRNGKey(0)
keys = jax.random.split(key, 4)
seeds = keys[..., 0]  # the first uint32 word of each key
generators = [np.random.default_rng(int(s)) for s in seeds]
print(len(generators))
