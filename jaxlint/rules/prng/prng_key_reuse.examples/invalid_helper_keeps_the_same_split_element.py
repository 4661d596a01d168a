import jax

jax.config.update("jax_debug_key_reuse", True)


def reset(rng):
    enemies = jax.random.uniform(jax.random.split(rng)[0], (3,))
    return {"rng": rng, "enemies": enemies}


def next_level(state):
    new_rng = jax.random.split(state["rng"])[1]
    level = reset(new_rng)
    speeds = jax.random.normal(jax.random.split(new_rng)[0], (3,))
    return level, speeds


next_level(reset(jax.random.key(0)))
