import jax


def loss(w):
    print('w', w)
    return w ** 2


g = jax.grad(loss)(3.0)
