from jax.random import PRNGKey as K
import jax
key = jax.random.key(0)
