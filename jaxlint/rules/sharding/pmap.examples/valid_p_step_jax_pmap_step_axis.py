import jax
p_step = jax.pmap(step, axis_name='i')
