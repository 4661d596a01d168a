import jax


def noise(key, steps):
    return [jax.random.normal(jax.random.fold_in(key, s), (2,)) for s in range(steps)]


noise(jax.random.key(0), 3)
