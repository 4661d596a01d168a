import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(jax.devices(), ("data",))
with mesh:  # expect: JAX502
    x = jax.device_put(jnp.ones(8), NamedSharding(mesh, P("data")))
    print(x.sum())
