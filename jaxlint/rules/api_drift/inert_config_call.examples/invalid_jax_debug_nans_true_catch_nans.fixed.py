import jax
if True:
    jax.config.update('jax_debug_nans', True)  # catch NaNs
