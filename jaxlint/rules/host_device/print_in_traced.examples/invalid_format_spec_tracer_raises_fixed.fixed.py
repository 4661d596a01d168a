import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    jax.debug.print("x={:.3f} (max {:>8.2e})", x, x)
    return x


f(jnp.float32(2.0))
