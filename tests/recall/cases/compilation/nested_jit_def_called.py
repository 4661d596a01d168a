import jax
import jax.numpy as jnp


def predict(params, x):
    @jax.jit  # expect: JAX402
    def forward(p, v):
        return jnp.tanh(v @ p)

    return forward(params, x)


def serve(params, requests):
    return [predict(params, r) for r in requests]


print(serve(jnp.ones((3, 2)), [jnp.ones((1, 3))]))
