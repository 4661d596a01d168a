import enum
from functools import partial

import jax


class Kind(enum.Enum):
    P = 1
    T = 2


def _bracket(x, kind, val):
    if kind == Kind.P:  # `kind` is `kind1` or `kind2`: static
        return val > x
    return val < x


def solve(x, kind1, kind2, val1, val2):
    # both alternatives are tuples: each name gets the elements at its position,
    # so `kind_other` is `kind2` or `kind1`, never `val1` or `val2`
    val_known, kind_other, val_other = (
        (val1, kind2, val2) if kind1 == Kind.T else (val2, kind1, val1)
    )
    return _bracket(val_known, kind_other, val_other)


@partial(jax.jit, static_argnames=("kind1", "kind2"))
def flash(x, kind1, kind2, val1, val2):
    return solve(x, kind1, kind2, val1, val2)


flash(1.0, Kind.P, Kind.T, 2.0, 3.0)
