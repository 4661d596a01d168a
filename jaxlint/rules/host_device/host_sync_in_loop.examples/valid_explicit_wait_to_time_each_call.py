import time

import jax
import jax.numpy as jnp


@jax.jit
def solve(x):
    return x * 2.0, (x**2).sum()


def time_each(starts):
    for x in starts:
        begin = time.perf_counter()
        out = solve(x)
        total = out[1].block_until_ready()  # waits on purpose: each call is timed
        print("took", time.perf_counter() - begin, "total", total)


time_each([jnp.ones(3), jnp.zeros(3)])
