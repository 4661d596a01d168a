import jax


def perturb(key, xs):
    keys = jax.random.split(key, 2)
    scale = jax.random.uniform(keys[0])
    # in_axes=None: every call gets the whole array; nothing maps over its keys
    return jax.vmap(lambda x, ks: x * scale + jax.random.normal(ks[1]), in_axes=(0, None))(
        xs, keys
    )


perturb(jax.random.key(0), jax.numpy.zeros(3))
