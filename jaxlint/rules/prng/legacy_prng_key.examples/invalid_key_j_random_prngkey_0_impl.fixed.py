import jax as j
key = j.random.key(0, impl='rbg')
