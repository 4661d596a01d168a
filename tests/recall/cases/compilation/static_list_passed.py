from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("axes",))
def reduce_over(x, axes):
    return jnp.sum(x, axis=axes)


x = jnp.ones((2, 3, 4))
print(reduce_over(x, axes=[0, 2]))  # expect: JAX404
