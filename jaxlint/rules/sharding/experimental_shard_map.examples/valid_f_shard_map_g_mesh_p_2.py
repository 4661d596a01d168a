from mylib import shard_map

f = shard_map(g, mesh, P('x'), P())
