import jax


def test_attention_shapes():
    key = jax.random.key(0)
    queries = jax.random.normal(key, (2, 4))
    keys = jax.random.normal(key, (4, 4))  # its first 2 rows are `queries`
    assert (queries @ keys.T).shape == (2, 4)


test_attention_shapes()
