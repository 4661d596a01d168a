from jax import jit as pjit

step = pjit(f, in_shardings=in_s, out_shardings=out_s, donate_argnums=0)
other = pjit(g)
