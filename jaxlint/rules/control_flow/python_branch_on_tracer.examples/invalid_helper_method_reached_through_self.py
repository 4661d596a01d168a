import jax
import jax.numpy as jnp
from functools import partial

class Model:
    def __init__(self, w):
        self.w = w

    @partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return self.act(x @ self.w)

    def act(self, h):
        flip = not h.any()
        return h * flip

Model(jnp.ones((3, 3)))(jnp.ones(3))
