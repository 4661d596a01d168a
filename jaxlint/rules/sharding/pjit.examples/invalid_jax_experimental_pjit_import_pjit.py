from jax.experimental.pjit import pjit

step = pjit(f, in_s, out_s, donate_argnums=0)
other = pjit(g)
