import jax
import jax.numpy as jnp
from jax.sharding import PositionalSharding  # expect: JAX505

sharding = PositionalSharding(jax.devices())
x = jax.device_put(jnp.ones(8), sharding)
