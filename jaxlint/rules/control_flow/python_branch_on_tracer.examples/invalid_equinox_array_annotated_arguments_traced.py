import equinox as eqx
import jax
import jax.numpy as jnp

@eqx.filter_jit
def loss(model, x: jax.Array, y: jax.Array):
    pred = jax.vmap(model)(x)
    err = jnp.mean((pred - y) ** 2)
    return err if err < 1e3 else jnp.inf
