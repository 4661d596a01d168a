import jax
import jax.numpy as jnp
from jax.experimental import pjit
from jax.sharding import NamedSharding, PartitionSpec

mesh = jax.make_mesh((1,), ("data",), axis_types=(jax.sharding.AxisType.Auto,))
f = pjit.pjit(lambda x: jax.lax.with_sharding_constraint(x, NamedSharding(mesh, PartitionSpec("data"))))
print(f(jnp.ones(4)))
