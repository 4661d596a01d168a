import jax
from jax import lax
import jax.numpy as jnp

def body(i, acc):
    out = acc * 2.0
    out = out.at[i].divide(3.0)
    return out

lax.fori_loop(0, 3, body, jnp.ones(3))
