import equinox as eqx
import jax.numpy as jnp


def loss(model, x):
    out = model(x)
    while jnp.max(out) > 10.0:  # expect: JAX202
        out = out / 2
    return jnp.sum(out)


@eqx.filter_jit
def step(model, x):
    return eqx.filter_grad(loss)(model, x)
