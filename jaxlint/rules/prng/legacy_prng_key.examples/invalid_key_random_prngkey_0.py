from jax import random
key = random.PRNGKey(0)
