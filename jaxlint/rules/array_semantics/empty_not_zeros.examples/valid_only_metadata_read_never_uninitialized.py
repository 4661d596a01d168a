import jax.numpy as jnp
dt = jnp.empty((), dtype=p.dtype).real.dtype
nd = jnp.empty((2, 3)).ndim
