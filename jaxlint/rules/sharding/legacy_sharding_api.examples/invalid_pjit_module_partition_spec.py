import jax
import jax.numpy as jnp
from jax.experimental import pjit


def logical_spec(*axes) -> pjit.PartitionSpec:
    return pjit.PartitionSpec(*axes)


MESH = jax.make_mesh((1,), ("data",), axis_types=(jax.sharding.AxisType.Auto,))


@jax.jit
def constrain(x):
    return pjit.with_sharding_constraint(x, jax.NamedSharding(MESH, logical_spec("data")))


print(constrain(jnp.ones(4)))
