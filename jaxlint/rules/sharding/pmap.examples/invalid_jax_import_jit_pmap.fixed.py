from jax import jit
import jax

def run(h, x):
    f = jit(jax.shard_map(jax.vmap(lambda x: x + 1), mesh=jax.make_mesh((jax.device_count(),), ('i',), axis_types=(jax.sharding.AxisType.Auto,)), in_specs=jax.P('i'), out_specs=jax.P('i'), check_vma=False))
    g = jit(jax.shard_map(jax.vmap(h), mesh=jax.make_mesh((jax.device_count(),), ('i',), axis_types=(jax.sharding.AxisType.Auto,)), in_specs=jax.P('i'), out_specs=jax.P('i'), check_vma=False))
    return f(x), g(x)
