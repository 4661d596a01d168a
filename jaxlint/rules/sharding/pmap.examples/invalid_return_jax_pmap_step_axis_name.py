import jax

def train(step, state, batch):
    p_step = jax.pmap(step, axis_name='batch', in_axes=(0, None), donate_argnums=0)
    return p_step(state, batch)
