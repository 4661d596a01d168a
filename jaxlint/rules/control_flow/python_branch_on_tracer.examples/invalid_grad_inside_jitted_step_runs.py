import jax
import jax.numpy as jnp

@jax.jit
def step(params, x):
    def loss(p):
        pred = x @ p
        return [v for v in (pred, -pred) if v.sum() > 0][0].sum()
    return jax.grad(loss)(params)

step(jnp.ones(3), jnp.ones(3))
