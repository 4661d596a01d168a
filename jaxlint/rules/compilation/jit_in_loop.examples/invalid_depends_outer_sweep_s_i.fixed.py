import jax
import jax.numpy as jnp

x = jnp.ones(3)
for i in (1, 2, 3):
    fn_jit = jax.jit(lambda v: v * i)
    for j in range(2):
        x = fn_jit(x)
