import jax
import jax.numpy as jnp


def batch(key, xs, ys, size):
    xb = jax.random.choice(key, xs, (size,))
    yb = jax.random.choice(key, ys, (size,))  # the same rows as xb: pairs stay aligned
    return xb, yb


xs = jnp.arange(10.0)
xb, yb = batch(jax.random.key(0), xs, 2 * xs, 4)
assert bool((yb == 2 * xb).all())
