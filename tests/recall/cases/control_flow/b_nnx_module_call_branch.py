import jax.numpy as jnp
from flax import nnx


class Gate(nnx.Module):
    def __init__(self, dim, rngs):
        self.linear = nnx.Linear(dim, dim, rngs=rngs)

    def __call__(self, x):
        h = self.linear(x)
        if h.mean() > 0:  # expect: JAX201
            h = nnx.relu(h)
        return h


@nnx.jit
def forward(model, x):
    return model(x)


model = Gate(3, nnx.Rngs(0))
forward(model, jnp.ones((2, 3)))
