import jax
import jax.numpy as jnp


def partial_sum(x: jax.Array, steps: int | jax.Array | None = None) -> jax.Array:
    bound = steps if steps is not None else x.shape[0]
    return jax.lax.fori_loop(0, bound, lambda i, total: total + x[i], 0.0)


jax.jit(partial_sum)(jnp.ones(8), 4)
