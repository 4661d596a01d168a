import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def fit(x):
    # the default backend, "jax", passed on by name: `_cpu_solve` never runs traced
    return solve(x, method="bfgs")


def solve(x, backend: str = "jax", method: str = "newton"):
    if backend == "jax" and method in ("newton", "lbfgs"):
        return jnp.asarray(x) * 2.0
    return _retry(x, backend=backend, tries=2)


def _retry(x, *, backend, tries):
    return _solve(x, backend=backend) * tries


def _solve(x, *, backend):
    if backend == "jax":
        return jnp.asarray(x) * 2.0
    elif backend == "cpu":
        return _cpu_solve(x)
    raise ValueError(f"unknown backend {backend!r}")


def _cpu_solve(x):
    return np.asarray(x) * 2.0  # the host path: NumPy on concrete arrays


print(fit(jnp.ones(3)).sum(), solve(np.ones(3), backend="cpu").sum())
