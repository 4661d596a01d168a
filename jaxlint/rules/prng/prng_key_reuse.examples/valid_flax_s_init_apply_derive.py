import jax
import flax.linen as nn


def test_dense():
    key = jax.random.key(0)
    x = jax.random.normal(key, (4, 3))
    variables = nn.Dense(2).init(key, x)
    return nn.Dense(2).apply(variables, x, rngs={'dropout': key})
