import jax

def train(step, state, batch):
    p_step = jax.jit(jax.shard_map(jax.vmap(step, in_axes=(0, None)), mesh=jax.make_mesh((jax.device_count(),), ('batch',), axis_types=(jax.sharding.AxisType.Auto,)), in_specs=(jax.P('batch'), jax.P()), out_specs=jax.P('batch'), check_vma=False), donate_argnums=0)
    return p_step(state, batch)
