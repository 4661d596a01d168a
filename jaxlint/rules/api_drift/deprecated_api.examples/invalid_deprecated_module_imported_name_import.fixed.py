import jax.extend
backend = jax.extend.backend.get_backend()
