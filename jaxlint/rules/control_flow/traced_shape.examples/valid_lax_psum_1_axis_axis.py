import jax
import jax.numpy as jnp
from jax import lax

@jax.jit
def f(xs):
    def per_device(x):
        n = lax.psum(1, 'i')
        return jnp.zeros(n) + x[:n].sum()
    return jax.vmap(per_device, axis_name='i')(xs)

f(jnp.ones((2, 3)))
