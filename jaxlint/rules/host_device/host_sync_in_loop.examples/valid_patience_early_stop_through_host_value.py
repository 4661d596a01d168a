import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    loss = jnp.sum(w**2)
    return w - 0.1 * 2 * w, loss


def fit(w, n_iter, patience=50, tol=1e-9):
    # the host value decides, through the patience counter, whether the loop goes on:
    # it is needed on every iteration (an L-BFGS acceptance test or a Newton
    # convergence test is the same shape)
    losses, best, waited = [], float("inf"), 0
    for _ in range(n_iter):
        w, loss = step(w)
        loss_val = float(loss)
        losses.append(loss_val)
        if best - loss_val > tol:
            best, waited = loss_val, 0
        else:
            waited += 1
        if waited >= patience:
            break
    return w, losses


fit(jnp.ones(3), 1000)
