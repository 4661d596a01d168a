import jax
import jax.numpy as jnp
import numpy as np


def validate_positive(n):
    """Checks a concrete count; a traced one cannot be checked here, and is let through."""
    try:
        if int(np.asarray(n)) <= 0:
            raise ValueError("n must be positive")
    except TypeError:
        return


@jax.jit
def scaled(x, n):
    validate_positive(n)
    return x * n


print(scaled(jnp.ones(3), 2))
