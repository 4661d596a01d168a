import jax

jax.config.update("jax_debug_key_reuse", True)


def perturb(rng, params):
    def add(x, rng):
        return x + 0.01 * jax.random.normal(rng, x.shape)

    return jax.tree.map(lambda x: add(x, rng), params)


perturb(jax.random.key(0), {"w": jax.numpy.zeros(3), "b": jax.numpy.zeros(3)})
