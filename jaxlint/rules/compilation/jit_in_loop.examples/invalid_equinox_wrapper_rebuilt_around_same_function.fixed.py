import equinox as eqx
import jax.numpy as jnp


def f(x):
    return x * 2


def run(batches):
    out = []
    g = eqx.filter_jit(eqx.filter_vmap(f))
    for b in batches:
        out.append(g(b))
    return out


run([jnp.ones((2, 3))] * 4)
