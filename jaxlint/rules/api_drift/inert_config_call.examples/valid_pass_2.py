import jax
ctx = jax.debug_nans(True)
with ctx:
    pass
