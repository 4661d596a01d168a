import jax
import jax.numpy as jnp


def make_step(lr):
    @jax.jit
    def step(w, g):
        return w - lr * g

    return step


step = make_step(0.1)
print(step(jnp.ones(2), jnp.ones(2)))
