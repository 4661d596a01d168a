import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def rollout(logits, key):
    def body(carry):
        step, key = carry
        key, subkey = jax.random.split(key)
        action = jax.random.categorical(key, logits)
        return step + 1 + 0 * action, key

    return jax.lax.while_loop(lambda c: c[0] < 3, body, (0, key))


rollout(jnp.zeros(3), jax.random.key(0))
