import jax
import jax.numpy as jnp
import numpy as np


def sgd_steps(w, xs):
    def body(i, w):
        return w - 0.01 * xs[i]

    return jax.lax.fori_loop(0, xs.shape[0], body, w)


def run_epoch(w, xs):
    w = sgd_steps(w, xs)
    return w, jnp.sum(w**2)


epoch_fn = jax.jit(run_epoch)
w = jnp.ones(3)
history = []
for epoch in range(30):
    w, loss = epoch_fn(w, jnp.ones((64, 3)))
    history.append(np.asarray(loss))
