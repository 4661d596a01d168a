import jax

def f(jax):
    return jax.pmap(g)
