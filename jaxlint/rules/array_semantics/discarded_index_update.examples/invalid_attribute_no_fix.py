import jax.numpy as jnp


class Buffer:
    def __init__(self, n):
        self.buf = jnp.zeros(n)

    def write(self, i, v):
        self.buf.at[i].set(v)


b = Buffer(3)
b.write(0, 5.0)
result = b.buf
