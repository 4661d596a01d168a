import jax
import numpy as np

params = {'w': np.ones((2, 3), np.float32), 'b': np.zeros(3, np.float32)}
devices = jax.local_devices()
replicated = jax.device_put(jax.tree.map(lambda leaf: jax.numpy.stack([leaf] * len(devices)), params), jax.NamedSharding(jax.sharding.Mesh(devices, ('x',)), jax.P('x')))
