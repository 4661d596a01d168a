import jax
from mylib.models import Mlp


def make(key):
    x = jax.random.normal(key, (1, 8))
    params = Mlp(features=4).init(key, x)  # Mlp may only fold its key in: not visible here
    return params
