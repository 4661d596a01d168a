import jax
@jax.default_matmul_precision('float32')
def f(x):
    return x
