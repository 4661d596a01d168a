import jax
import jax.numpy as jnp

def make_key(step):
    return jax.random.key(step)

@jax.jit
def noisy_step(w, key):
    return w + 0.01 * jax.random.normal(key, w.shape)

w = jnp.zeros(3)
for step in range(100):
    key = make_key(step)
    w = noisy_step(w, key)
