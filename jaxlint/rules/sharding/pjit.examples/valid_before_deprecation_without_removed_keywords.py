from jax.experimental.pjit import pjit

step = pjit(f, in_shardings=s)
