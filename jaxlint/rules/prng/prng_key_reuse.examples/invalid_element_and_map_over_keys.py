import jax

jax.config.update("jax_debug_key_reuse", True)


def mutate(key, trees):
    keys = jax.random.split(key, trees.shape[0])
    which = jax.random.bernoulli(keys[0], 0.3, (trees.shape[0],))
    noise = jax.vmap(lambda k, t: t + jax.random.normal(k, t.shape))(keys, trees)
    return jax.numpy.where(which[:, None], noise, trees)


mutate(jax.random.key(0), jax.numpy.zeros((4, 3)))
