import jax
jax.config.update('jax_enable_memories', True)
