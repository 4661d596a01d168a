import jax
import jax.numpy as jnp


def loss(w, x):
    spread = float(jnp.std(x @ w))  # expect: JAX101
    return jnp.mean((x @ w) ** 2) / spread


value, grad = jax.value_and_grad(loss)(jnp.ones(3), jnp.ones((4, 3)))
