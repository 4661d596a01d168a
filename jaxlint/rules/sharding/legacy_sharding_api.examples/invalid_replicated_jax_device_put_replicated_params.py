import jax
import numpy as np

params = {'w': np.ones((2, 3), np.float32), 'b': np.zeros(3, np.float32)}
replicated = jax.device_put_replicated(params, jax.local_devices())
