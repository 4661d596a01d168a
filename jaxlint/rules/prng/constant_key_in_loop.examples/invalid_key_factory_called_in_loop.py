import jax
import jax.numpy as jnp

def make_key():
    return jax.random.key(42)

@jax.jit
def noisy_step(w, key):
    return w + 0.01 * jax.random.normal(key, w.shape)

w = jnp.zeros(3)
for step in range(100):
    key = make_key()
    w = noisy_step(w, key)
