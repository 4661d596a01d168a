import jax
jax.enable_x64
