import jax
import jax.numpy as jnp
from jax.experimental import checkify

w = jnp.ones(3)
for x in [jnp.full(3, float(i)) for i in range(4)]:
    step = jax.jit(checkify.checkify(lambda w, x: w - 0.1 * x))
    err, w = step(w, x)
    err.throw()
