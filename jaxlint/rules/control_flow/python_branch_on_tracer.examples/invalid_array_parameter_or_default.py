import jax
import jax.numpy as jnp


def partial_sum(x: jax.Array, steps: int | jax.Array | None = None) -> jax.Array:
    # `steps` may be an array: under the caller's `jit` it is a tracer
    bound = steps or x.shape[0]
    return jax.lax.fori_loop(0, bound, lambda i, total: total + x[i], 0.0)


jax.jit(partial_sum)(jnp.ones(8), 4)
