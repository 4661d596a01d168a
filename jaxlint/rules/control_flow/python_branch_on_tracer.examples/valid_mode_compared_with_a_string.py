import flax.linen as nn
import jax
import jax.numpy as jnp


TRAIN = "train"


def scale(x, mode: str):
    if mode == TRAIN:  # `mode` is annotated `str`: no transform traces a string
        return x * 2.0
    return x


class Block(nn.Module):
    @nn.compact
    def __call__(self, x, mode):
        x = scale(x, mode)
        # compared with a string: a Python bool, decided when JAX traces
        # (were `mode` traced, it would equal no string: the comparison gives False)
        if mode == "train":
            x = x * 2.0
        return nn.Dense(3)(x)


block = Block()
params = block.init(jax.random.key(0), jnp.ones(3), "eval")
apply = jax.jit(block.apply, static_argnames="mode")
apply(params, jnp.ones(3), mode="train")
