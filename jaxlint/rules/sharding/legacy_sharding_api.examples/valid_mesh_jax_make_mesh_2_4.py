import jax

mesh = jax.make_mesh((2, 4), ('a', 'b'), axis_types=(jax.sharding.AxisType.Auto,) * 2)
