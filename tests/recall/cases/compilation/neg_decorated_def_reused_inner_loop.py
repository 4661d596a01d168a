import jax
import jax.numpy as jnp


def simulate(rates, steps):
    finals = []
    for rate in rates:
        @jax.jit
        def step(v):
            return v * rate

        v = jnp.ones(2)
        for _ in range(steps):
            v = step(v)
        finals.append(v)
    return finals


print(simulate([jnp.float32(0.5)], 3))
