import jax

jax.config.update("jax_debug_key_reuse", True)


class Model:
    def __init__(self, key):
        self.key = key
        self.params = None

    def init_params(self, n):
        wkey, bkey = jax.random.split(self.key)
        self.params = {"w": jax.random.normal(wkey, (n, n)), "b": jax.random.normal(bkey, (n,))}


model = Model(jax.random.key(0))
model.init_params(3)
