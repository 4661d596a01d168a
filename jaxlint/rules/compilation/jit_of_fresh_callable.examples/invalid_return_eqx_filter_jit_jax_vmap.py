import equinox as eqx
import jax

def g(x):
    return x * 2

def f(xs):
    return eqx.filter_jit(jax.vmap(g))(xs)
