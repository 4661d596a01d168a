import jax
import jax.numpy as jnp
import numpy as np


def host_log(v):
    return np.asarray(v).astype(np.float32) * 2


@jax.jit
def f(x):
    y = jax.pure_callback(host_log, jax.ShapeDtypeStruct(x.shape, x.dtype), x)
    jax.debug.callback(lambda v: print(float(v.sum())), x)
    return y


f(jnp.ones(3))
