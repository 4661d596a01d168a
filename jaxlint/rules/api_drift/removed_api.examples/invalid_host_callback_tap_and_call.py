import numpy as np
import jax
import jax.numpy as jnp
from jax.experimental import host_callback as hcb

seen = []


def tap(x, transforms):
    seen.append((x.tolist(), transforms))


def step(x):
    hcb.id_tap(tap, x)
    return hcb.call(np.sin, x, result_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))


print(step(jnp.arange(3.0)), seen)
