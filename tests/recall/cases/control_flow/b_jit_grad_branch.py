import jax
import jax.numpy as jnp


def hinge(theta, xs, ys):
    margin = ys * (xs @ theta)
    worst = jnp.min(margin)
    if worst < 1.0:  # expect: JAX201
        return jnp.sum(jnp.maximum(0.0, 1.0 - margin))
    return 0.0 * jnp.sum(theta)


value_and_grad = jax.jit(jax.value_and_grad(hinge))
value_and_grad(jnp.zeros(2), jnp.ones((5, 2)), jnp.ones(5))
