import jax

jax.config.update("jax_debug_key_reuse", True)


def noise(key, steps):
    out = []
    for step in range(steps):
        out.append(jax.random.normal(jax.random.fold_in(key, step), (2,)))
    return out


noise(jax.random.key(0), 3)
