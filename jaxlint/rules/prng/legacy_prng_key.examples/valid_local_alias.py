import jax
PRNGKey = jax.random.key
key = PRNGKey(0)
