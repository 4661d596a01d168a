import jax
import jax.numpy as jnp


def mse(params, xs, ys):
    err = jnp.mean((xs @ params - ys) ** 2)
    print(f"mse {err:8.5f}")  # expect: JAX103
    return err


jax.value_and_grad(mse)(jnp.zeros(2), jnp.ones((4, 2)), jnp.ones(4))
