import jax
import jax.numpy as jnp


def check_all(ops, x):
    out = []
    for op in ops:
        # a different function each iteration: one compilation each is the point
        out.append(jax.jit(op)(x))
    return out


check_all([jnp.sin, jnp.cos, jnp.tanh], jnp.ones(3))
