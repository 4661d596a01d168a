from jax.experimental import pjit

step = pjit.pjit(f, abstracted_axes=axes)
