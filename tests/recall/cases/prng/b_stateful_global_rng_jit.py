import jax
import jax.numpy as jnp

RNG = jax.random.key(11)


def split_global():
    global RNG
    RNG, child = jax.random.split(RNG)  # expect: JAX104
    return child


@jax.jit
def noisy_relu(h):
    noise = jax.random.uniform(split_global(), h.shape)  # expect: JAX305
    return jnp.maximum(h + 0.01 * noise, 0.0)


first = noisy_relu(jnp.ones(4))
second = noisy_relu(jnp.ones(4))
