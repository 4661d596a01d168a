from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("axes",))
def reduce_over(x, axes):
    return jnp.sum(x, axis=axes)


print(reduce_over(jnp.ones((2, 3, 4)), axes=(0, 2)))
