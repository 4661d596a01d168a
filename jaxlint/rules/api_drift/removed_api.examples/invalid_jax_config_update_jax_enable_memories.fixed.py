import jax
pass
