"""Doc."""
from jax.random import PRNGKey

key = PRNGKey(42)
