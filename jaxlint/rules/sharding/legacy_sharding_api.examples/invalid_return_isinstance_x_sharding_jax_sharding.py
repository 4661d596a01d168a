import jax

def is_pmapped(x):
    return isinstance(x.sharding, jax.sharding.PmapSharding)
