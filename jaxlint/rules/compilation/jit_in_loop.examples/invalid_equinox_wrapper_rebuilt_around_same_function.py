import equinox as eqx
import jax.numpy as jnp


def f(x):
    return x * 2


def run(batches):
    out = []
    for b in batches:
        g = eqx.filter_jit(eqx.filter_vmap(f))
        out.append(g(b))
    return out


run([jnp.ones((2, 3))] * 4)
