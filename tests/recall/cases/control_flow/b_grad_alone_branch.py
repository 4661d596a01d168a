import jax
import jax.numpy as jnp


def loss(w, x):
    pred = x @ w
    if jnp.mean(pred) > 0:  # concrete primal under grad alone: this runs
        return jnp.mean(pred**2)
    return jnp.mean(jnp.abs(pred))


g = jax.grad(loss)(jnp.ones(3), jnp.ones((4, 3)))
print(g)
