from jax.experimental.pjit import pjit

make = pjit
