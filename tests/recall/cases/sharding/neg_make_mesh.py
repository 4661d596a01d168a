import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((len(jax.devices()),), ("data",))
with jax.set_mesh(mesh):
    x = jax.device_put(jnp.ones(8), NamedSharding(mesh, P("data")))
    print(x.sum())
