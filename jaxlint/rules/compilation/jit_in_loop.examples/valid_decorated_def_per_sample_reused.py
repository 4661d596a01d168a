import jax
import jax.numpy as jnp


def run(samples, steps):
    out = []
    for sample in samples:
        @jax.jit
        def step(v):
            return v * sample

        v = jnp.ones(2)
        for _ in range(steps):
            v = step(v)
        out.append(v)
    return out


print(run([jnp.float32(0.5)], 3))
