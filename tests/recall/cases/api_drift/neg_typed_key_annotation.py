import jax


def sample(key: jax.Array, n: int):
    return jax.random.normal(key, (n,))


print(sample(jax.random.key(0), 2))
