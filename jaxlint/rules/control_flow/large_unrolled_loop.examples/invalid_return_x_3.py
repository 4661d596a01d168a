import equinox as eqx
import jax

@eqx.filter_jit
def f(x: jax.Array):
    for _ in range(300):
        x = x * 2
    return x
