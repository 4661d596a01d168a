from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("x",))


@partial(jax.jit, out_shardings=P())
def total(x):
    return jnp.sum(x)


with jax.set_mesh(mesh):
    print(total(jnp.ones(4)))
