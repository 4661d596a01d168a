import numpy as np
import jax
import jax.numpy as jnp

seen = []


def tap(x, transforms):
    seen.append((x.tolist(), transforms))


def step(x):
    jax.experimental.io_callback(tap, None, x, (), ordered=True)
    return jax.experimental.io_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x, ordered=True)


print(step(jnp.arange(3.0)), seen)
