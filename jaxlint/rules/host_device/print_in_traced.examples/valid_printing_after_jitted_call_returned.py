import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    return x * 2


y = f(jnp.ones(3))
print('y', y, f'{y[0]:.3f}')
