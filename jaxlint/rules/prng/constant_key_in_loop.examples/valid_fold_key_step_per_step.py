import jax


def noise(steps):
    base = jax.random.key(0)
    return [jax.random.normal(jax.random.fold_in(base, s)) for s in range(steps)]
