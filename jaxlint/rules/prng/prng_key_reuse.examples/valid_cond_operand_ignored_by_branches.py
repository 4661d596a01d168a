import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def maybe_resample(samples, key, step):
    # `key` is also passed as the operand, which both branches ignore (`_`): one draw
    return jax.lax.cond(
        step % 2 == 0,
        lambda _: jax.random.normal(key, samples.shape),
        lambda _: samples,
        key,
    )


print(maybe_resample(jnp.zeros(3), jax.random.key(0), 0))
