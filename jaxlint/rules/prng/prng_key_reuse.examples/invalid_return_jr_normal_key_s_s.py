import jax
import jax.random as jr

jax.config.update("jax_debug_key_reuse", True)


def draws(key, shapes):
    return [jr.normal(key, s) for s in shapes]


draws(jr.key(1), [(2,), (3,)])
