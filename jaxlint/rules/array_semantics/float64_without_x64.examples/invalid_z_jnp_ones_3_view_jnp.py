import jax.numpy as jnp
from jax import lax
import numpy as np
x = jnp.ones(3)
y = lax.convert_element_type(x, np.dtype('f8'))
z = jnp.ones(3).view(jnp.double)
