import jax
import jax.numpy as jnp


def check_key(rng):
    if rng.dtype != jnp.uint32:
        raise ValueError(f"expected a uint32 key, got {rng.dtype}")


key = jax.random.PRNGKey(0)
check_key(key)
