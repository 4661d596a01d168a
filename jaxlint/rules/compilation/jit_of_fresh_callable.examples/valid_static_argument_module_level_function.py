import jax
from jax import lax


def _body(i, x):
    return x * 2.0


def warmup(state, num_warmup):
    return jax.jit(lax.fori_loop, static_argnums=(2,))(0, num_warmup, _body, state)


out = [warmup(1.0, 3) for _ in range(3)]
