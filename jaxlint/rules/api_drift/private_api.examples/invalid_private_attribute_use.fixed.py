import jax


def is_tracer(x):
    return isinstance(x, jax.core.Tracer)
