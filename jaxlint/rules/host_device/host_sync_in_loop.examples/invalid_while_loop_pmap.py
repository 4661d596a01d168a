import jax


@jax.pmap
def p_step(state, batch):
    return state, {'loss': batch}


while not done():
    state, metrics = p_step(state, next(it))
    logs = jax.device_get(metrics)
