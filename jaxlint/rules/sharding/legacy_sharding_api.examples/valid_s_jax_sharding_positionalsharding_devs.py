import jax

s = jax.sharding.PositionalSharding(devs)
