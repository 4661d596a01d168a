import jax
import jax.numpy as jnp


def maybe_jit(fn, **kwargs):
    return jax.jit(fn, **kwargs)


def collect(transform, x):
    return jax.jit(transform)(x)


def _double(v):
    return v * 2.0


def _first(v):
    return v[0]


def step(x):
    return maybe_jit(_double)(x)


def run(x):
    return collect(_first, x)


out = [step(jnp.ones(3)).sum(), run(jnp.ones((2, 3))).sum()]
