import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def anneal(key, state, temperatures):
    def step(carry, temperature):
        state, key = carry
        key, sub = jax.random.split(key)
        return (state + temperature * jax.random.normal(sub, state.shape), key), None

    step_keys = jax.random.split(key, temperatures.shape[0])
    (state, _), _ = jax.lax.scan(step, (state, key), temperatures)
    return state, step_keys


anneal(jax.random.key(0), jnp.zeros(3), jnp.ones(4))
