import jax
import jax.numpy as jnp
from jax import lax

WEIGHTS = [1.0, 2.0, 3.0]


def body(i, acc):
    return acc + WEIGHTS[int(i)]


lax.fori_loop(0, 3, body, jnp.float32(0.0))
