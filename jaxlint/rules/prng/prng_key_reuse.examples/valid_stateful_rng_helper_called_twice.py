import jax
import jax.numpy as jnp

_KEY = jax.random.key(0)

def next_key():
    global _KEY
    _KEY, sub = jax.random.split(_KEY)
    return sub

def init_layer(n_in, n_out):
    return jax.random.normal(next_key(), (n_in, n_out)) / jnp.sqrt(n_in)

a = init_layer(3, 4)
b = init_layer(3, 4)
assert not (a == b).all()
