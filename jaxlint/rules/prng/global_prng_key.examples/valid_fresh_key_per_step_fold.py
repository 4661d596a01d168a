import jax

KEY = jax.random.key(0)


def noise(step, shape):
    return jax.random.normal(jax.random.fold_in(KEY, step), shape)
