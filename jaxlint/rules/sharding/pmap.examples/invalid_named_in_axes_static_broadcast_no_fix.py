from functools import partial

import jax

IN_AXES = (0, None)


@partial(jax.pmap, in_axes=IN_AXES, static_broadcasted_argnums=(2,))
def step(x, w, n):
    return x * w * n
