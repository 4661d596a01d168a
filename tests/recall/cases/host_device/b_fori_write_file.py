import jax
import jax.numpy as jnp


def body(i, x):
    with open("log.txt", "a") as f:  # expect: JAX104
        f.write("step\n")
    return x * 2.0


out = jax.lax.fori_loop(0, 10, body, jnp.ones(3))
