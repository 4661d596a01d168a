import jax
key = jax.random.wrap_key_data(raw)
