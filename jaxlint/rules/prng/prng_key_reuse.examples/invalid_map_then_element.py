import jax


def init(key, n):
    keys = jax.random.split(key, n)
    layers = jax.vmap(lambda k: jax.random.normal(k, (3,)))(keys)
    bias = jax.random.normal(keys[0], (3,))  # equal to layers[0]
    return layers, bias


layers, bias = init(jax.random.key(0), 4)
assert (layers[0] == bias).all()
