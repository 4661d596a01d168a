import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


def to_numpy_rng(key):
    seed = np.asarray(jax.random.randint(key, (2,), 0, 2**31 - 1), dtype=np.uint32)
    return np.random.default_rng(seed)


class RandomMask(eqx.Module):
    n_tokens: int = eqx.field(static=True)

    def __call__(self, key):
        rng = to_numpy_rng(key)
        return jnp.asarray(rng.permutation(self.n_tokens)[: self.n_tokens // 2])


mask = RandomMask(16)(jax.random.key(0))
