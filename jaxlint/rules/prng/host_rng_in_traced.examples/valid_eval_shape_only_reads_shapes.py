import jax
import jax.numpy as jnp
import numpy as np


shape = jax.eval_shape(lambda x: x + np.random.normal(), jnp.zeros(3))
