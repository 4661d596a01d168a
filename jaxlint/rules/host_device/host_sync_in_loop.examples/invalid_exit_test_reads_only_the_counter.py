import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    loss = jnp.sum(w**2)
    return w * 0.9, loss


def fit(w, n_iter, budget):
    # the loop stops on a count the host already has: the per-step `float(loss)` only
    # fills a history, and could stay on device and be fetched after the loop
    history, spent = [], 0
    for _ in range(n_iter):
        w, loss = step(w)
        history.append(float(loss))
        spent += 1
        if spent >= budget:
            break
    return w, history


fit(jnp.ones(3), 1000, 500)
