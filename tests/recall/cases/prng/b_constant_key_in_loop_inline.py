import jax
import jax.numpy as jnp

samples = []
for _ in range(10):
    key = jax.random.key(0)  # expect: JAX304
    samples.append(jax.random.normal(key, (3,)))
print(jnp.stack(samples).std(0))
