import jax
import jax.numpy as jnp

with jax.sharding.use_mesh(jax.make_mesh((jax.device_count(),), ('x',))):
    y = jnp.ones(3)
