from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("axis",))
def _total(xs, axis):
    return sum(jnp.sum(x, axis=axis) for x in xs)


def total(xs, axis=0):
    return _total(xs, axis)


# a list is a pytree of traced leaves for `xs`; only `axis` is static
total([jnp.ones((2, 3)), jnp.zeros((2, 3))])
total([jnp.ones(3)], axis=(0,))
