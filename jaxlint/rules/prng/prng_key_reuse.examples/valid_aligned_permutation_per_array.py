import jax
import jax.numpy as jnp


def shuffle_together(key, arrays):
    # one key for every array: the same permutation of each, so rows stay paired
    return [jax.random.permutation(key, a) for a in arrays]


xs = jnp.arange(6.0)
xs_shuffled, ys_shuffled = shuffle_together(jax.random.key(0), [xs, 3 * xs])
assert bool((ys_shuffled == 3 * xs_shuffled).all())
