import jax

def double(x):
    @jax.jit
    @jax.shard_map(mesh=jax.make_mesh((jax.device_count(),), ('i',), axis_types=(jax.sharding.AxisType.Auto,)), in_specs=jax.P('i'), out_specs=jax.P('i'), check_vma=False)
    @jax.vmap
    def scale(x):
        return x * 2

    return scale(x)
