import jax.numpy as jnp
r = jnp.linalg.matrix_rank(jnp.eye(3), tol=1e-3)
