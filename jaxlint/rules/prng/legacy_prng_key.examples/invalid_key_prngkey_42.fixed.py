"""Doc."""
from jax.random import PRNGKey
import jax

key = jax.random.key(42)
