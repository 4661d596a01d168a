import jax
import jax.numpy as jnp

def f(x):
    return x * 2

for _ in range(3):
    text = jax.jit(f).lower(jnp.ones(3)).as_text()
for scale in (1.0, 2.0):
    y = jax.jit(f)(jnp.ones(3) * scale)
