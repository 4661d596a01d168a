import jax
import jax.numpy as jnp


def loss(w, x):
    pred = x @ w
    if jnp.mean(pred) > 0:  # expect: JAX201
        return jnp.mean(pred**2)
    return jnp.mean(jnp.abs(pred))


grad_step = jax.jit(jax.grad(loss))
grad_step(jnp.ones(3), jnp.ones((4, 3)))
