import jax

jax.config.update("jax_debug_key_reuse", True)


def init(key):
    weights = []
    for n in [4, 8, 16]:
        weights.append(jax.random.normal(key, (n, n)))
    return weights


init(jax.random.key(0))
