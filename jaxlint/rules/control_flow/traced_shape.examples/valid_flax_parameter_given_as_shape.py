import functools

import flax.linen as nn
import jax
import jax.numpy as jnp


class QuantileNetwork(nn.Module):
    num_actions: int = 4

    @nn.compact
    def __call__(self, x, num_quantiles, rng):
        # ``num_quantiles`` is a shape here: every call that runs gives a Python int
        # (``jax.jit(..., static_argnames="num_quantiles")`` below), so the test and the
        # range that read it are static too
        quantiles_shape = [num_quantiles, 1]
        quantiles = jax.random.uniform(rng, shape=quantiles_shape)
        if num_quantiles > 1:
            quantiles = jnp.sort(quantiles, axis=0)
        tiled = jnp.zeros((num_quantiles, x.shape[-1])) + x.mean(0)
        rows = [tiled[i] * quantiles[i] for i in range(num_quantiles)]
        return nn.Dense(self.num_actions)(jnp.stack(rows)), quantiles


@functools.partial(jax.jit, static_argnames="num_quantiles")
def act(params, x, rng, num_quantiles):
    return QuantileNetwork().apply(params, x, num_quantiles, rng)
