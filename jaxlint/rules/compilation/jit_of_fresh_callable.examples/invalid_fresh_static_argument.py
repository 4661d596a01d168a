import jax
from jax import lax


def warmup(state, num_warmup, scale):
    state = jax.jit(lax.fori_loop, static_argnums=(2,))(
        0, num_warmup, lambda i, x: x * scale, state
    )
    return jax.device_get(state)
