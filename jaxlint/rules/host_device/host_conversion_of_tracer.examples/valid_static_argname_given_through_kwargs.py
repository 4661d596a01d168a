from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=["mem_limit"])
def evaluate(m, **hierarchy):
    # `mem_limit` is a static keyword: the caller's Python float
    limit = hierarchy["mem_limit"] / 8 if np.isfinite(hierarchy["mem_limit"]) else 1.0
    return m * int(limit) + hierarchy.get("mem_limit", 0.0)


evaluate(jnp.ones(3), mem_limit=64.0, pts=jnp.zeros(3))
