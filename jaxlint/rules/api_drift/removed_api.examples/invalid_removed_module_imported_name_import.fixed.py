import jax
import jax.extend

backend = jax.extend.backend.get_backend()
name = jax.default_backend()
