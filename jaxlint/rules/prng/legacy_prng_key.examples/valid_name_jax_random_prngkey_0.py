import jax
name = 'jax.random.PRNGKey(0)'
