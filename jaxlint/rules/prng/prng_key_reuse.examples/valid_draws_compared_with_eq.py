import jax


def check_deterministic(key):
    first = jax.random.uniform(key, (3,))
    second = jax.random.uniform(key, (3,))
    assert bool((first == second).all()), "the sampler is not deterministic"


check_deterministic(jax.random.key(0))
