import jax
import jax.numpy as jnp


def step(w, x):
    return w - 0.1 * jnp.mean(x) * w


p_step = jax.pmap(step)  # expect: JAX501
n = jax.local_device_count()
print(p_step(jnp.ones((n, 3)), jnp.ones((n, 4))))
