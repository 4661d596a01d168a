import jax

jax.config.update("jax_debug_key_reuse", True)


@jax.jit
def simulate(key):
    return jax.random.normal(key, (1000,))


def paired(key):
    a = simulate(key)
    a.block_until_ready()
    b = simulate(key)
    return a - b  # both runs are used: b == a


paired(jax.random.key(0))
