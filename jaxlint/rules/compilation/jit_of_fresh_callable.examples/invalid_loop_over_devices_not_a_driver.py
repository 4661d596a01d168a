import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def global_max(values):
    mesh = Mesh(np.asarray(jax.devices()), ["dev"])
    shards = []
    for d in jax.local_devices():
        shards.append(jax.device_put(np.asarray(values)[None], d))
    g_arr = jax.make_array_from_single_device_arrays(
        (len(shards), len(values)), NamedSharding(mesh, P("dev")), shards
    )
    result = jax.jit(lambda x: x, out_shardings=NamedSharding(mesh, P()))(g_arr)
    return np.asarray(result).max(axis=0)
