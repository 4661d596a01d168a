import jax
if True:
    jax.debug_nans(True)  # catch NaNs
