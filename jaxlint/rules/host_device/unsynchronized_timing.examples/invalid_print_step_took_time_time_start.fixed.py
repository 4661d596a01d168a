import time
import jax

step = jax.jit(update)


def train(state, batches):
    for batch in batches:
        start = time.time()
        state, loss = step(state, batch)
        jax.block_until_ready((state, loss))
        print('step took', time.time() - start)  # seconds
    return state
