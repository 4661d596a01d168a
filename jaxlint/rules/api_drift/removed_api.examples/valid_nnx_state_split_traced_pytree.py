import jax
from flax import nnx


@nnx.jit
def count_params(state: nnx.State):
    params, rest = state.split(nnx.Param, ...)  # flax.nnx.State.split, not jax.Array.split
    return jax.tree.reduce(lambda a, b: a + b.size, params, 0)


@jax.jit
def params_only(state):
    params, _ = state.split(nnx.Param, ...)  # a traced pytree: its own `split`
    return params
