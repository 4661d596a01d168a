import jax
import jax.numpy as jnp


def set_row(w, i, v):
    # `w` may be a NumPy array or a list here: `jax.ops.index_update` took those too,
    # and they have no `.at`, so the rewrite is unsafe
    return jax.ops.index_update(w, i, v)


out = set_row(jnp.zeros((2, 3)), 0, 1.0)
