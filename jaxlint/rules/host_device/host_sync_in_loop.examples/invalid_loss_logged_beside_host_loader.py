import jax
import jax.numpy as jnp
import numpy as np


class Loader:
    def next_batch(self, step):
        return np.full(4, step, np.float32)


class Logger:
    def log(self, step, value):
        pass


@jax.jit
def train_step(w, x):
    loss = jnp.sum((w - x) ** 2)
    return w - 0.1 * (w - x), loss


loader, logger = Loader(), Logger()
w = jnp.zeros(4)
for step in range(10_000):
    batch = loader.next_batch(step)
    w, loss = train_step(w, jnp.asarray(batch))
    logger.log(step, float(loss))
