from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((1,), ("i",))


@partial(jax.shard_map, mesh=mesh, in_specs=(P(), P()), out_specs=P())
def scale(x, n):
    if n > 1:
        return x * n
    return x


@jax.jit
def step(x):
    return scale(x, 2)


step(jnp.ones(4))
