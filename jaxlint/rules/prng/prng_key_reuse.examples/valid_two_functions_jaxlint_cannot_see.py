import jax


def run(model, key, x):
    params = model.init(key, x)
    return model.apply(params, x, rngs={'dropout': key})
