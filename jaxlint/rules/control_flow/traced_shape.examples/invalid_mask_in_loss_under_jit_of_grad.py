import jax
import jax.numpy as jnp

def loss(w, x):
    pred = x @ w
    return jnp.mean(pred[pred > 0] ** 2)

grad_step = jax.jit(jax.grad(loss))
grad_step(jnp.ones(3), jnp.ones((4, 3)))
