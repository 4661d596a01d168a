import jax
from jax import random, tree_util

jax.config.update("jax_debug_key_reuse", True)


def add_noise(grads, key, std):
    noise = lambda g: g + std * random.normal(key, g.shape)
    tree_map = tree_util.tree_map
    return tree_map(noise, grads)  # every leaf gets the same noise


add_noise({"w": jax.numpy.zeros(3), "b": jax.numpy.zeros(3)}, jax.random.key(0), 0.1)
