import jax
import jax.numpy as jnp


def loss(params, x):
    scale = float(jnp.std(x @ params))  # expect: JAX101
    return jnp.mean((x @ params) ** 2) / scale


step = jax.jit(jax.value_and_grad(loss))
value, grads = step(jnp.ones((3,)), jnp.ones((4, 3)))
