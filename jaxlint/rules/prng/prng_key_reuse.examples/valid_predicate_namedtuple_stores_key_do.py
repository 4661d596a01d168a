import collections
import jax

State = collections.namedtuple('State', ['x', 'key'])


def step(state):
    key, sub = jax.random.split(state.key)
    x = state.x + jax.random.normal(sub)
    assert is_valid_key(key)
    return State(x, key)
