import time

import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    return x @ x


def main(x, rounds):
    for r in range(rounds):
        t0 = time.time()
        out = f(x)
        print(
            f"round {r} took {time.time() - t0:.2f} s",  # the clock read
            out.shape,
        )


main(jnp.ones((4, 4)), 2)
