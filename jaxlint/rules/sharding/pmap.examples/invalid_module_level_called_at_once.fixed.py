import jax
import jax.numpy as jnp

n = jax.device_count()
y = jax.jit(jax.shard_map(jax.vmap(lambda x: x * 2), mesh=jax.make_mesh((jax.device_count(),), ('i',), axis_types=(jax.sharding.AxisType.Auto,)), in_specs=jax.P('i'), out_specs=jax.P('i'), check_vma=False))(jnp.arange(n * 2.0).reshape(n, 2))
