import jax
import jax.numpy as jnp
from jax.experimental.shard_map import shard_map  # expect: JAX504
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((len(jax.devices()),), ("x",), axis_types=(jax.sharding.AxisType.Auto,))


def local_sum(x):
    return jax.lax.psum(jnp.sum(x), "x")


f = shard_map(local_sum, mesh=mesh, in_specs=P("x"), out_specs=P())
print(f(jnp.ones(8)))
