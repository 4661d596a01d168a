import jax
import jax.numpy as jnp
from functools import partial


@partial(jax.jit, static_argnums=1, static_argnames='tag')
def f(x, n, tag='run'):
    print('n =', n, tag)
    return x * n


f(jnp.ones(3), 2, tag='a')
