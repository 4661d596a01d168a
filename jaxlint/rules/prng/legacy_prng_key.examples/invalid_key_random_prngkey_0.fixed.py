from jax import random
key = random.key(0)
