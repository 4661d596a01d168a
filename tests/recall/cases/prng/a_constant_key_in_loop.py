import jax
import jax.numpy as jnp


def augment(batches):
    out = []
    for b in batches:
        key = jax.random.key(42)  # expect: JAX304
        out.append(b + jax.random.normal(key, b.shape))
    return out
