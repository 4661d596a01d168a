import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    w = w * 0.5
    return w, jnp.sum(w**2)


def minimize(w, max_steps):
    # the loop stops when the residual is small: the `if ...: break` test needs the
    # residual on every iteration to decide whether to go on; logging the same residual
    # adds no sync of its own
    history = []
    for _ in range(max_steps):
        w, residual = step(w)
        history.append(float(residual))
        if residual < 1e-6:
            break
    return w, history


minimize(jnp.ones(3), 1000)
