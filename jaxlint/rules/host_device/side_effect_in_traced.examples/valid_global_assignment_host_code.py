import jax

state = {}


def reset():
    global state
    state = {}
