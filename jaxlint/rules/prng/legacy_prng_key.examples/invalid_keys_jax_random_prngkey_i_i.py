import jax.random
keys = [jax.random.PRNGKey(i) for i in range(3)]
