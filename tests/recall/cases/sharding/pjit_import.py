import jax
import jax.numpy as jnp
from jax.experimental.pjit import pjit  # expect: JAX503
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(jax.devices(), ("x",))
f = pjit(lambda a: a * 2, in_shardings=None, out_shardings=None)
print(f(jnp.ones(4)))
