import functools

import jax
import jax.numpy as jnp


def power(x, n):
    return x**n


def sweep(x, settings):
    out = []
    for setting in settings:
        # the exponent is static configuration of the function, not array data
        f = jax.jit(functools.partial(power, n=setting["n"]))
        out.append(f(x))
    return out


sweep(jnp.ones(3), [{"n": 2}, {"n": 3}])
