import jax

jax.config.update("jax_debug_key_reuse", True)


class Linear:
    def __init__(self, key, n):
        self.key = key
        wkey, bkey = jax.random.split(self.key)
        self.w = jax.random.normal(wkey, (n, n))
        self.b = jax.random.normal(bkey, (n,))

    def __call__(self, x):
        return self.w @ x + self.b


layer = Linear(jax.random.key(0), 3)
layer(jax.numpy.ones(3))
layer(jax.numpy.ones(3))
