import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def scale(x):
    return x * 2


scaled = jax.jit(scale, in_axis_resources=(P("x"),), out_axis_resources=P("x"))  # expect: JAX503
print(scaled)
