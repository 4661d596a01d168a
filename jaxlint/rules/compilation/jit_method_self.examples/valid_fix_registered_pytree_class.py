import jax
import jax.numpy as jnp

@jax.tree_util.register_pytree_node_class
class Model:
    def __init__(self, w):
        self.w = w

    def tree_flatten(self):
        return (self.w,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @jax.jit
    def apply(self, x):
        return self.w * x

Model(jnp.ones(3)).apply(jnp.ones(3))
