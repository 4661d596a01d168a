import jax


def noisy(key, n, extra):
    k1, k2 = jax.random.split(key)
    x = jax.random.normal(key, (n,))
    if extra:
        x = x + jax.random.normal(k2, (n,))  # drawn from a key split off `key`
    return x


noisy(jax.random.key(0), 3, True)
