import jax
import jax.numpy as jnp


def step_cost(key, is_goal, is_thin):
    safe_noise = jax.random.normal(key) * 0.1
    cost_safe = 1.0 + safe_noise
    is_shock = jax.random.bernoulli(key, p=0.2)
    cost_thin = 2.0 + is_shock * 5.0
    # every position keeps one choice (or the default): never both draws
    return jnp.select([is_goal, is_thin], [0.0, cost_thin], default=cost_safe)


step_cost(jax.random.key(0), jnp.array(False), jnp.array(True))
