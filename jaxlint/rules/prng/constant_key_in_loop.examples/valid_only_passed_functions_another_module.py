import jax


def build(models, x):
    return [m.init(jax.random.key(0), x) for m in models]
