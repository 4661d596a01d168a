import jax
flag = jax.config.jax_enable_x64
