import jax


def test_policy_shapes():
    key = jax.random.key(0)
    obs = jax.random.normal(key, (4, 3))
    key, sub = jax.random.split(key)
    assert obs.shape == (4, 3) and sub.shape == ()
