import logging
import time
import jax
import jax.numpy as jnp


@jax.jit
def epoch(w):
    return w * 0.5, {'loss': jnp.sum(w)}


w = jnp.ones(4)
t = time.time()
w, metrics = epoch(w)
jax.tree_util.tree_map(lambda x: x.block_until_ready(), metrics)
dt = time.time() - t
t = time.time()
w, metrics = epoch(w)
size = jnp.sum(w)
logging.info('size %s', size)
assert size >= 0
dt = time.time() - t
start = time.time()
w, metrics = epoch(w)
for it in range(3):
    logging.info('iteration %s at %s', it, time.time() - start)
