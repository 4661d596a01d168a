from mylib import PRNGKey
key = PRNGKey(0)  # uses jax elsewhere
