import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    print(f'x={x:.3f} (max {x:>8.2e})')
    return x


f(jnp.float32(2.0))
