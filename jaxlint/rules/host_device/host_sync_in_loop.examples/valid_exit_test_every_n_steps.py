import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    w = w * 0.5
    return w, jnp.sum(w**2)


def minimize(w, max_steps):
    # the convergence test runs every 100 steps: `step_i % 100 == 0` is a Python test
    # that runs first, and the device value is read only when it passes
    for step_i in range(max_steps):
        w, residual = step(w)
        if step_i % 100 == 0 and residual < 1e-6:
            break
    return w


minimize(jnp.ones(3), 1000)
