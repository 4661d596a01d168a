import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


class Conv(eqx.Module):
    weight: jax.Array
    scale: float

    def __init__(self, in_channels: int, kernel_size, key):
        self.scale = jnp.sqrt(in_channels * jnp.prod(jnp.array(kernel_size))).item()
        self.weight = jax.random.normal(key, (in_channels, *kernel_size)) / self.scale


def counting():
    def init_fn(params):
        sizes = np.asarray([np.size(p) for p in jax.tree.leaves(params)])
        return {"count": jnp.zeros([], jnp.int32), "total": int(sizes.sum())}

    def update_fn(updates, state, params=None):
        return updates, {**state, "count": state["count"] + 1}

    return optax.GradientTransformation(init_fn, update_fn)
