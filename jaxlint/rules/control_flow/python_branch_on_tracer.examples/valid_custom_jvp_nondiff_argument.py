from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def jited(ls, x):
    if len(ls) > 3:
        return custom(ls, x)
    return plain(ls, x)


def plain(ls, x):
    # `ls` is a static tuple on both paths: from `jited`'s static argument, and through
    # `custom`, whose `nondiff_argnums` pass it on as the caller gave it
    return [power(order, x) for order in ls]


def power(order, x):
    if order == 0:
        return jnp.ones_like(x)
    return x**order


@partial(jax.custom_jvp, nondiff_argnums=(0,))
def custom(ls, x):
    return plain(ls, x)


@custom.defjvp
def custom_jvp(ls, primals, tangents):
    (x,), (dx,) = primals, tangents
    return custom(ls, x), [dx for _ in ls]


jited((0, 1, 2), jnp.ones(3))
jited((0, 1, 2, 3), jnp.ones(3))
