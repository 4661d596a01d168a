import jax


def init(key):
    k1, k2 = jax.random.split(key)
    w = jax.random.normal(k1, (3,))
    b = jax.random.normal(k2, (1,))
    return w, b


print(init(jax.random.key(0)))
