import jax

mapped = jax.pmap(step, axis_name='i') if multi else step
