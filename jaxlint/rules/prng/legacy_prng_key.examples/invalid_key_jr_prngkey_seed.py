from jax import random as jr
key = jr.PRNGKey(seed)
