import jax
jax.transfer_guard()
