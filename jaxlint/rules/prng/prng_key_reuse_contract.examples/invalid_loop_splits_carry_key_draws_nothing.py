import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def slice_step(key, x0, width, log_prob):
    log_y = log_prob(x0) + jnp.log(jax.random.uniform(key))

    def step_out(state):
        left, k, _ = state
        k, unused = jax.random.split(k)  # split, and no key split off is ever drawn from
        return left - width, k, log_prob(left) > log_y

    left, _, _ = jax.lax.while_loop(lambda s: s[2], step_out, (x0 - width, key, True))
    return left


slice_step(jax.random.key(0), 0.0, 0.5, lambda x: -x * x)
