import numpy as np
import jax.numpy as jnp
x = np.array(jnp.arange(3.0))
x[0] = 5.0
y = jnp.asarray(x)
