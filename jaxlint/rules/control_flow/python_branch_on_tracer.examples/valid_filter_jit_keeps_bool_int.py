import equinox as eqx
import jax

@eqx.filter_jit
def f(x: jax.Array, deterministic: bool, n: int = 2):
    if deterministic or n > 1:
        return x
    return x * 2
