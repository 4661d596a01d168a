from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.pmap, axis_name="d")  # expect: JAX501
def allreduce(x):
    return jax.lax.psum(x, "d")


print(allreduce(jnp.ones((jax.local_device_count(), 2))))
