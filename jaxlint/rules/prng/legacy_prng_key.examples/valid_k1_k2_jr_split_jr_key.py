import jax.random as jr
k1, k2 = jr.split(jr.key(1))
