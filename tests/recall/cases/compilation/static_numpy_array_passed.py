import jax
import jax.numpy as jnp
import numpy as np


def pad_to(x, shape):
    return jnp.zeros(tuple(shape)).at[: x.shape[0]].set(x)


pad_jit = jax.jit(pad_to, static_argnums=(1,))
target = np.array([8])
print(pad_jit(jnp.ones(3), target))  # expect: JAX404
