import jax
idx = jax.process_index()
