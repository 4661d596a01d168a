import jax.numpy as jnp
from jax import lax


def accumulate(state, obs):
    count, histogram = state
    histogram[obs.astype(int)] += 1.0  # expect: JAX601
    return (count + 1, histogram), count


bins = jnp.zeros(5)
final, _ = lax.scan(accumulate, (0, bins), jnp.array([1.0, 3.0, 3.0]))
