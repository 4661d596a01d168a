import jax
import jax.numpy as jnp

CONFIGS = [("narrow", {"width": 4}), ("wide", {"width": 16})]


def run(key, width):
    w = jax.random.normal(key, (width,))
    return float(jnp.sum(w**2))


def compare():
    key = jax.random.key(0)
    results = {}
    for name, cfg in CONFIGS:
        results[name] = run(key, **cfg)
    return results


compare()
