import enum
from functools import partial

import jax


class Kind(enum.Enum):
    P = 1
    T = 2


def bracket(x, kind, val):
    if val > x:  # `val` is `val1` or `val2`: traced
        return kind == Kind.P
    return False


def solve(x, kind1, kind2, val1, val2):
    val_known, kind_other, val_other = (
        (val1, kind2, val2) if kind1 == Kind.T else (val2, kind1, val1)
    )
    return bracket(val_known, kind_other, val_other)


@partial(jax.jit, static_argnames=("kind1", "kind2"))
def flash(x, kind1, kind2, val1, val2):
    return solve(x, kind1, kind2, val1, val2)


flash(1.0, Kind.P, Kind.T, 2.0, 3.0)
