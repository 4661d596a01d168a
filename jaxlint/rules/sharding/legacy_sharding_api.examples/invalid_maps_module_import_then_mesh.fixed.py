import jax
import numpy as np

mesh = jax.sharding.Mesh(np.array(jax.devices()), ("x",))
