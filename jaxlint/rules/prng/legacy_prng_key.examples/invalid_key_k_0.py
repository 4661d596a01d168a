from jax.random import PRNGKey as K
key = K(0)
