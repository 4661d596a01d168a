import jax
import jax.numpy as jnp


@jax.jit
def f(xs):
    outs = []
    cache = {}
    for i in range(3):
        outs.append(xs[i] * 2)
        cache[i] = xs[i]
    return jnp.stack(outs)


f(jnp.ones(3))
