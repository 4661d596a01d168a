import jax
import jax.numpy as jnp


@jax.jit
def evaluate(population, key):
    return population + jax.random.normal(key, population.shape)


@jax.jit
def evolve(population, key):
    return population * jax.random.uniform(key, population.shape)


def warm_up(population):
    # compiles both functions once; the results are thrown away
    dummy_key = jax.random.key(0)
    jax.block_until_ready(evaluate(population, dummy_key))
    jax.block_until_ready(evolve(population, dummy_key))


warm_up(jnp.zeros(4))
