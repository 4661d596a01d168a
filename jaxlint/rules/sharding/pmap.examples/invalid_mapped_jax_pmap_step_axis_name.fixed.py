import jax

mapped = jax.jit(jax.shard_map(jax.vmap(step), mesh=jax.make_mesh((jax.device_count(),), ('i',), axis_types=(jax.sharding.AxisType.Auto,)), in_specs=jax.P('i'), out_specs=jax.P('i'), check_vma=False)) if multi else step
