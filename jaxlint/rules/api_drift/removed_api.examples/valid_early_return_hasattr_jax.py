import jax


def x32():
    """Context with x64 off, on JAX versions old and new."""
    if hasattr(jax, "enable_x64"):
        return jax.enable_x64(False)
    from jax.experimental import disable_x64

    return disable_x64()


with x32():
    pass
