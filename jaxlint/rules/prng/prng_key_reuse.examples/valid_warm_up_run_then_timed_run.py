import time

import jax


@jax.jit
def simulate(key):
    return jax.random.normal(key, (1000,))


def benchmark():
    key = jax.random.key(0)
    start = time.time()
    cells = simulate(key)  # the first run compiles
    cells.block_until_ready()
    print(f"with compilation: {time.time() - start:.3f}s")
    start = time.time()
    cells = simulate(key)  # the same run again, timed without compilation
    cells.block_until_ready()
    print(f"without: {time.time() - start:.3f}s, mean {float(cells.mean()):.3f}")


benchmark()
