import jax
import jax.numpy as jnp


def update(x):
    return x * 0.5


step = jax.jit(update)


def run(x, steps):
    for _ in range(steps):
        x = step(x)
    return x


print(run(jnp.ones(4), 10))
