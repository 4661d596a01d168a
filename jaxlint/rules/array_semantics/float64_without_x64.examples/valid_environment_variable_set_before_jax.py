import os
os.environ["JAX_ENABLE_X64"] = "1"
import jax.numpy as jnp
x = jnp.asarray([1.0], dtype="float64")
