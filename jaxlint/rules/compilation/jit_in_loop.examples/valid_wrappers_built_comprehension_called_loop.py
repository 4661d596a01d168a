import jax
import jax.numpy as jnp

def f(x):
    return x * 2

fns = [jax.jit(f) for _ in range(3)]
for fn in fns:
    fn(jnp.ones(3))
