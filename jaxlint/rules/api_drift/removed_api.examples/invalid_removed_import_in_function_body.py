import jax


def x32():
    from jax.experimental import disable_x64

    return disable_x64()
