import jax

jax.config.update("jax_debug_key_reuse", True)


def test_graph_degree():
    key = jax.random.key(0)
    senders = jax.random.randint(key, (6,), 0, 4)
    receivers = jax.random.randint(key, (6,), 0, 4)  # equal to senders: all self-loops
    assert senders.shape == receivers.shape


test_graph_degree()
