import jax


def init(key, n):
    keys = jax.random.split(key, n + 1)
    bias = jax.random.normal(keys[0], (3,))
    layers = jax.vmap(lambda k: jax.random.normal(k, (3,)))(keys[1:])
    return layers, bias


layers, bias = init(jax.random.key(0), 4)
assert not (layers[0] == bias).all()
