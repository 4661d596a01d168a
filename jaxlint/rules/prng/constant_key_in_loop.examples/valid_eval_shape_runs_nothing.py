import jax
import jax.numpy as jnp


shapes = jax.eval_shape(lambda: jax.random.normal(jax.random.key(0), (3,)))
