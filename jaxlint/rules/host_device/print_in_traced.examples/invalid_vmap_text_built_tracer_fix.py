import jax


def per_example(x):
    print('x = ' + str(x))
    return x


jax.vmap(per_example)(xs)
