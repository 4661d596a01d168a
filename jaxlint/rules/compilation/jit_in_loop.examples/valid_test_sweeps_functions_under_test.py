import jax
import jax.numpy as jnp


def relu(x):
    return jnp.maximum(x, 0.0)


def softplus(x):
    return jnp.log1p(jnp.exp(x))


ACTIVATIONS = {"relu": relu, "softplus": softplus}


def test_activations_are_nonnegative():
    x = jnp.linspace(-2.0, 2.0, 5)
    for name, activation in ACTIVATIONS.items():
        assert bool((jax.jit(activation)(x) >= 0).all()), name


test_activations_are_nonnegative()
