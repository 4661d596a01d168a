import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    return w - 0.1 * x


w = jnp.ones(3)
scale = step(w, w)
for i in range(100):
    w = step(w, jnp.ones(3))
    print(w.shape, w.dtype, float(scale[0]))
