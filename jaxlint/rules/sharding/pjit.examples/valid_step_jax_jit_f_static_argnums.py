import jax

step = jax.jit(f, static_argnums=(1,))
