import jax
import jax.numpy as jnp

DTYPES = (jnp.float32, jnp.int32, jnp.bfloat16)


def cast_all(x, dtypes):
    out = []
    for dtype in dtypes:
        out.append(jax.jit(lambda v: v.astype(dtype))(x))
    return out


x = jnp.ones(3)
for dtype in DTYPES:
    y = jax.jit(lambda v: jnp.zeros(3, dtype) + v)(x)
cast_all(x, [jnp.float16, jnp.float32])
