import jax
import jax.numpy as jnp


def boss_interval(key, mix):
    """80% of intervals in [24, 31), 20% in [31, 37): one draw per position."""
    return jnp.where(
        mix < 0.8,
        jax.random.randint(key, (), 24, 31),
        jax.random.randint(key, (), 31, 37),
    )


boss_interval(jax.random.key(0), 0.5)
