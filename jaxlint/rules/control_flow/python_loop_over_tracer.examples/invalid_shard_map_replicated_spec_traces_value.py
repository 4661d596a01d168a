from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((1,), ("i",))


@partial(jax.shard_map, mesh=mesh, in_specs=(P(), P()), out_specs=P())
def repeat(x, n):
    for _ in range(n):
        x = x * 2
    return x


@jax.jit
def step(x):
    return repeat(x, 2)


step(jnp.ones(4))
