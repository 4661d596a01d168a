import jax.experimental.shard_map as shm

f = shm.shard_map(g, make_mesh(), P('x'), P(), auto={'y'})
