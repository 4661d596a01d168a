import jax
jax.enable_x64(True)
