import jax
import jax.numpy as jnp


def body(i, x: jax.Array):
    x[i] -= 1.0  # expect: JAX601
    return x


print(jax.lax.fori_loop(0, 3, body, jnp.ones(3)))
