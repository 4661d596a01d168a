from functools import partial

import jax
import numpy as np

@partial(jax.jit, donate_argnums=0)
def update(w):
    return w * 2

w = np.ones(3)
out = update(w)
print(w + 1)
