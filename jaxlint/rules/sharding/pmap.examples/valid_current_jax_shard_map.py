import jax
mesh = jax.make_mesh((jax.device_count(),), ('i',), axis_types=(jax.sharding.AxisType.Auto,))
f = jax.jit(jax.shard_map(lambda x: x * 2, mesh=mesh, in_specs=jax.P('i'), out_specs=jax.P('i')))
y = f(jax.numpy.arange(float(jax.device_count())))
