import jax
import jax.numpy as jnp
from functools import partial

@partial(jax.jit, static_argnames=('n',))
def f(x, n):
    return jnp.zeros(n) + x[:n], jnp.eye(n)

g = jax.jit(lambda x, k: jnp.broadcast_to(x, (k, 3)), static_argnums=1)
f(jnp.ones(3), 2)
g(jnp.ones(3), 2)
