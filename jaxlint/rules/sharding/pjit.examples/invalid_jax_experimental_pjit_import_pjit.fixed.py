import jax

step = jax.jit(f, in_shardings=in_s, out_shardings=out_s, donate_argnums=0)
other = jax.jit(g)
