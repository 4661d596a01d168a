import jax


class _Seeds:
    pass


_state = {"key": jax.random.key(3)}


def take_key():
    _state["key"], out = jax.random.split(_state["key"])
    return out


embeddings = {name: jax.random.normal(take_key(), (4,)) for name in ("a", "b", "c")}
