import jax


def update(params, batch):
    return params


step = jax.jit(update)
for i in range(10_000):
    params = step(params, next(data))
    total = float(params['loss'])
