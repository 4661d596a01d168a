import jax

KEY = jax.random.key(0)


def next_key():
    global KEY
    KEY, sub = jax.random.split(KEY)
    return sub
