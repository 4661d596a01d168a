from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=["mem_limit"])
def evaluate(m, **hierarchy):
    scale = float(hierarchy["pts"].sum())
    return m * scale


evaluate(jnp.ones(3), mem_limit=64.0, pts=jnp.zeros(3))
