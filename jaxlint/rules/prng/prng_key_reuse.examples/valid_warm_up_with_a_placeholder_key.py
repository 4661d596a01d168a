import jax


@jax.jit
def reset(key):
    return jax.random.normal(key, (4,))


@jax.jit
def step(obs, noise):
    return obs + noise


class Env:
    def compile(self):
        """Run reset and a step once so that JAX compiles them; the outputs are thrown away."""
        key = jax.random.key(0)
        obs = reset(key)
        step(obs, jax.random.normal(key, (4,))).block_until_ready()


Env().compile()
