from jax.experimental import pjit

step = pjit.pjit(f, in_shardings=s)
