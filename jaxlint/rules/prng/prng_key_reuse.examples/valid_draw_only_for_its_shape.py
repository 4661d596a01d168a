import jax
import jax.numpy as jnp


def run(prior_sampler, key, num_batches):
    num_params = prior_sampler(key, 1).shape[-1]  # only the shape is read
    best = jnp.zeros(num_params)
    for _ in range(num_batches):
        key, sub = jax.random.split(key)
        best = jnp.maximum(best, prior_sampler(sub, 8).max(axis=0))
    return best


def uniform_prior(key, n):
    return jax.random.uniform(key, (n, 3))


run(uniform_prior, jax.random.key(0), 3)
