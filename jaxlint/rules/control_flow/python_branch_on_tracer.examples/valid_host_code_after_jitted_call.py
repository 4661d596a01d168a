import jax
import jax.numpy as jnp

@jax.jit
def f(x):
    return x * 2

y = f(jnp.ones(()))
if y > 1:
    print('big')
z = 1.0 if float(y) > 0 else 0.0
