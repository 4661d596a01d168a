import jax
import jax.numpy as jnp

w = jnp.ones(3)
lr = 0.1
step = 0
while step < 1000:
    try:
        # a new lambda on every step: the `try` does not end the loop on success
        update = jax.jit(lambda w: w - lr * w)
        w = update(w)
        step += 1
    except FloatingPointError:
        lr = lr / 2
