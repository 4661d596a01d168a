import jax.numpy as jnp

grads = jnp.ones((4, 4))
acc = jnp.empty_like(grads)  # expect: JAX602
acc = acc + grads
