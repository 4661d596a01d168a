import jax
from jax import lax

jax.config.update("jax_debug_key_reuse", True)


def total(key):
    def body(i, acc):
        return acc + jax.random.normal(key)

    return lax.fori_loop(0, 5, body, 0.0)


total(jax.random.key(0))
