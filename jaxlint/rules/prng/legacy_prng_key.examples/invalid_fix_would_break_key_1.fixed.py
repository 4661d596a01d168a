import jax


def seed_bits(seed):
    key = jax.random.PRNGKey(seed)
    return int(key[1])
