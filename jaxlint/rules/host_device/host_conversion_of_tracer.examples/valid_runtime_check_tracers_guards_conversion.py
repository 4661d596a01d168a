import jax
from jax import core


@jax.jit
def f(x):
    if not isinstance(x, core.Tracer):
        return float(jax.device_get(x))
    return x
