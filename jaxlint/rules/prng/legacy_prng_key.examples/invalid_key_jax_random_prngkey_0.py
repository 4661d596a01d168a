import jax
key = jax.random.PRNGKey(0)
