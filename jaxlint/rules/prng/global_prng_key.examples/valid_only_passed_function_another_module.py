import jax

KEY = jax.random.key(0)


def init(model, x):
    return model.init(KEY, x)
