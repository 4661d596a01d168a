import jax

jax.config.update("jax_debug_key_reuse", True)


def init_layer(key, shape):
    return jax.random.normal(key, shape)


def init(key, layer_shapes):
    params = []
    for shape in layer_shapes:
        params.append(init_layer(key, shape))
    return params


init(jax.random.key(0), [(2, 3), (3, 4)])
