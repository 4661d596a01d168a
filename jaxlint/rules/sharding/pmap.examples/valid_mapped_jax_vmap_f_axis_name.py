import jax
mapped = jax.vmap(f, axis_name='i')
