import jax


def is_tracer(x):
    return isinstance(x, jax._src.core.Tracer)
