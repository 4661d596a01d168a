from jax import random as jr
key = jr.key(seed)
