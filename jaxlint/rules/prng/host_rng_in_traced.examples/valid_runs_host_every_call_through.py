import jax
import jax.numpy as jnp
import numpy as np


def host_noise(shape):
    return np.random.normal(size=shape).astype(np.float32)


@jax.jit
def f(x):
    noise = jax.pure_callback(
        lambda: host_noise((3,)), jax.ShapeDtypeStruct((3,), jnp.float32)
    )
    return x + noise


f(jnp.zeros(3))
