from types import SimpleNamespace

import jax
import jax.numpy as jnp

cfg = SimpleNamespace(model_sizes=[2, 4, 8, 16])


@jax.jit
def param_norm(w):
    return jnp.linalg.norm(w)


for size in cfg.model_sizes:
    norm = param_norm(jnp.ones(size))
    print(f"size {size}: norm {float(norm):.3f}")
