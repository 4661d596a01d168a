import jax.numpy as jnp
import numpy as np

buf = np.zeros(4)
buf[1] += 2.0
print(jnp.asarray(buf))
