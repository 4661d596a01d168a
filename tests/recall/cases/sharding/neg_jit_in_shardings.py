import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((len(jax.devices()),), ("x",))
spec = NamedSharding(mesh, P("x"))
scaled = jax.jit(lambda x: x * 2, in_shardings=spec, out_shardings=spec)
print(scaled(jnp.ones(8)))
