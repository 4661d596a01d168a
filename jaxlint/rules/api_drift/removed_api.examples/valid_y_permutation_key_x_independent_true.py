from jax.random import permutation
y = permutation(key, x, independent=True)
