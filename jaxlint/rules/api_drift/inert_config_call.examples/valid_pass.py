import jax
with jax.enable_x64(True):
    pass
