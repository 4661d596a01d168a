import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    loss = jnp.mean((x * w) ** 2)
    print('loss', loss)
    return loss


step(jnp.ones(3), jnp.ones(3))
