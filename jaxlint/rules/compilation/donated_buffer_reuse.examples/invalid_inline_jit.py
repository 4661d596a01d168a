import jax
import jax.numpy as jnp

x = jnp.arange(3.0)
y = jax.jit(lambda v: v * 2, donate_argnums=0)(x)
z = jnp.concatenate([x, y])
