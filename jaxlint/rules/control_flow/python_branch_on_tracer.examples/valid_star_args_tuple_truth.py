import jax
import jax.numpy as jnp
from jax import Array


def stack_parameters(*values: Array) -> Array:
    if values and all(v.ndim == 1 for v in values):
        return jnp.stack(values)
    return jnp.zeros((0, 3))


@jax.jit
def step(a, b):
    return stack_parameters(a, b).sum(axis=0)


step(jnp.ones(3), jnp.ones(3))
