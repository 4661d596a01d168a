import jax
import jax.numpy as jnp


def normalize(x):
    return jax.jit(lambda v: (v - v.mean()) / (v.std() + 1e-6))(x)  # expect: JAX402


def handle(batch):
    return normalize(batch)


print(handle(jnp.arange(6.0)))
