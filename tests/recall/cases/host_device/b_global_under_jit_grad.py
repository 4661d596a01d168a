import jax
import jax.numpy as jnp

last_loss = None


def loss_fn(w, x):
    global last_loss
    value = jnp.mean((x * w) ** 2)
    last_loss = value  # expect: JAX104
    return value


grad_fn = jax.jit(jax.grad(loss_fn))
g = grad_fn(jnp.ones(3), jnp.ones(3))
