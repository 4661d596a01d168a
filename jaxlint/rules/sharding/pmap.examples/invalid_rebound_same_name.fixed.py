import jax

def train(training_epoch, state, fast):
    if fast:
        training_epoch = jax.jit(jax.shard_map(jax.vmap(training_epoch), mesh=jax.make_mesh((jax.device_count(),), ('i',), axis_types=(jax.sharding.AxisType.Auto,)), in_specs=jax.P('i'), out_specs=jax.P('i'), check_vma=False))
    else:
        training_epoch = jax.jit(training_epoch)
    return training_epoch(state)
