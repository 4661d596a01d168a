from jax.experimental.pjit import pjit

step = pjit(f, out_axis_resources=spec)
