import jax

jax.config.update("jax_debug_key_reuse", True)


def build(key, motor, thruster):
    rngs = jax.random.split(key, 8)
    a = jax.lax.cond(motor, lambda: jax.random.normal(rngs[3]), lambda: 0.0)
    b = jax.lax.cond(thruster, lambda: jax.random.uniform(rngs[4]), lambda: 0.0)
    return a, b


build(jax.random.key(0), True, True)
