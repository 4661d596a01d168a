import jax
from mylib.models import Mlp


def make(key, x):
    params = Mlp(features=4).init(key, x)
    noise = jax.random.normal(key, (1, 8))
    return params, noise
