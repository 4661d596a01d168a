import jax

_sqrt = None


def _require_sqrt():
    global _sqrt
    if _sqrt is None:  # an optional import, cached on first use
        from math import sqrt

        _sqrt = sqrt
    return _sqrt


@jax.jit
def scale(x):
    return x * _require_sqrt()(2.0)


print(scale(1.0), scale(2.0))
