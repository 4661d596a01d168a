import jax

jax.config.update("jax_debug_key_reuse", True)


def propose(key, alpha, n):
    key_v, key_u = jax.random.split(key)
    if alpha is None:
        return jax.random.normal(key, (n,))
    return alpha * jax.random.normal(key_v, (n,))


propose(jax.random.key(0), None, 3)
