import jax
from packaging.version import Version

JAX_GE_0_8_2 = Version(jax.__version__) >= Version("0.8.2")


def aval_of(x):
    if JAX_GE_0_8_2:
        return jax.typeof(x)
    else:
        return jax.core.get_aval(x)
