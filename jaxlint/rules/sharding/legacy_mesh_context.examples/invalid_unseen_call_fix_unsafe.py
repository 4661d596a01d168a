import logging

import jax
import jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(jax.devices(), ('x',))
with mesh:
    double = jax.jit(lambda a: a * 2, in_shardings=P('x'))
    y = double(jnp.arange(4.0 * jax.device_count()))
    logging.getLogger(__name__).info("doubled %s", y.shape)
