import equinox as eqx
import jax

@eqx.filter_jit
def f(x: jax.Array, depth: int):
    for _ in range(depth):
        x = x * 2
    return x
