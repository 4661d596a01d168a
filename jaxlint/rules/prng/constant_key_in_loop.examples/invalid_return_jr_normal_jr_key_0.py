import jax.random as jr


def draws():
    return [jr.normal(jr.key(0), (2,)) for _ in range(4)]
