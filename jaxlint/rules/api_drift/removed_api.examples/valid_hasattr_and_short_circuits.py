import jax


def is_sharded(x):
    return hasattr(jax, "pxla") and isinstance(x, jax.pxla.ShardedDeviceArray)
