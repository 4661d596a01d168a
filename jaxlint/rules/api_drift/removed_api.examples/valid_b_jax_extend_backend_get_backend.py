import jax
import jax.extend
b = jax.extend.backend.get_backend()
