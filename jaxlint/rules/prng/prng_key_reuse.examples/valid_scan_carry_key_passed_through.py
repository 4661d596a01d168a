import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def anneal(key, state, temperatures):
    def step(carry, inputs):
        state, key = carry  # the carry's key is only handed back
        temperature, step_key = inputs
        state = state + temperature * jax.random.normal(step_key, state.shape)
        return (state, key), None

    step_keys = jax.random.split(key, temperatures.shape[0])
    (state, _), _ = jax.lax.scan(step, (state, key), (temperatures, step_keys))
    return state


anneal(jax.random.key(0), jnp.zeros(3), jnp.ones(4))
