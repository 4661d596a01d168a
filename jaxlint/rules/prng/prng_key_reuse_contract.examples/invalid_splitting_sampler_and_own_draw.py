import jax

jax.config.update("jax_debug_key_reuse", True)


def synthetic(key, n):
    features = jax.random.normal(key, (n, 4))
    labels = jax.random.randint(key, (n,), 0, 3)
    return features, labels


synthetic(jax.random.key(0), 8)
