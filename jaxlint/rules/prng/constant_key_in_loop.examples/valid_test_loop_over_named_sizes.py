import jax
import jax.numpy as jnp


def test_memory_scales_with_parameters():
    param_counts = [100, 500, 1000]
    sums = []
    for n_params in param_counts:
        key = jax.random.key(42)  # the same seed for every size: comparable runs
        params = jax.random.normal(key, (n_params,))
        sums.append(float(jnp.sum(params**2)))
    assert len(sums) == 3


test_memory_scales_with_parameters()
