import jax
import jax.numpy as jnp
from numpy import random as nprand


@jax.jit
def augment(images):
    def body(carry, img):
        flip = nprand.rand() > 0.5  # expect: JAX303
        return carry, jnp.where(flip, img[:, ::-1], img)

    _, out = jax.lax.scan(body, None, images)
    return out


augment(jnp.ones((4, 8, 8)))
