import jax

jax.config.update("jax_debug_key_reuse", True)


def simulate(key):
    return jax.random.normal(key, (3,))


key = jax.random.key(0)
compiled = jax.jit(simulate).lower(key).compile()
key, sub = jax.random.split(key)
compiled(sub)
