import jax
import jax.numpy as jnp

class Base:
    pass

class Model(Base):
    @jax.jit(static_argnums=2)
    def apply(self, x, n):
        return x * n

Model().apply(jnp.ones(3), 2)
