import jax
import jax.numpy as jnp

x = jnp.zeros((4, 3))
# rows 1 and 2
y = jax.ops.index_update(
    x,
    jax.ops.index[1:3, ...],
    1.0,
)
z = jax.ops.index_add(y, jax.ops.index[0], 2.0)
assert float(z.sum()) == 12.0
