from jax import pmap, vmap

KNOWN = (vmap, pmap)
