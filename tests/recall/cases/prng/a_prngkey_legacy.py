import jax

key = jax.random.PRNGKey(0)  # expect: JAX302
