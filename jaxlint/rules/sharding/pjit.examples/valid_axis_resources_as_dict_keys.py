import jax
import jax.numpy as jnp

legacy = {"in_axis_resources": None, "out_axis_resources": None}
f = jax.jit(lambda x: x + 1, in_shardings=None, out_shardings=None)
print(f(jnp.ones(2)), legacy)
