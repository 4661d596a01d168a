import jax

s = jax.sharding.PositionalSharding(jax.devices()).reshape(4, 2)
