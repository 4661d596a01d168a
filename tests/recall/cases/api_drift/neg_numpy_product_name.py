import jax.numpy as jnp
import numpy as np

print(np.prod(np.arange(3)), jnp.trapezoid(jnp.ones(3)))
