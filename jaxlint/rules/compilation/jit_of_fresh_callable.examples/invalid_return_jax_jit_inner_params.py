import jax

def loss(params, x):
    def inner(p):
        return (p * x).sum()
    return jax.jit(inner)(params)
