import jax
p = jax.pmap(f, axis_name='i', static_broadcasted_argnums=1)
