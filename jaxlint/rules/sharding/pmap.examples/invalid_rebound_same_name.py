import jax

def train(training_epoch, state, fast):
    if fast:
        training_epoch = jax.pmap(training_epoch, axis_name='i')
    else:
        training_epoch = jax.jit(training_epoch)
    return training_epoch(state)
